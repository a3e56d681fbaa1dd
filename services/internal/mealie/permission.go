package mealie

import (
	"fmt"
	"net/http"
	"strings"
)

// organizePaths are the creates Mealie 3 allows only to a user with the
// "organize group data" permission (can_organize): foods, units and the
// three organizers. Without it Mealie answers 403, which, read as a bad
// token, sent users to regenerate a token that was fine.
var organizePaths = map[string]bool{
	"/api/foods": true, "/api/units": true,
	"/api/organizers/tags": true, "/api/organizers/categories": true, "/api/organizers/tools": true,
}

// OrganizePermission is the start of the message of a create refused for
// want of can_organize; IsOrganizePermission looks for it.
const OrganizePermission = "the Mealie user of MEALIE_API_TOKEN lacks the \"organize group data\" permission"

// refine rewords two answers whose plain reading misleads: a 403 on a
// taxonomy create, which is a missing permission and not a bad token, and
// a 400 "Recipe already exists" on a recipe update, which Mealie gives for
// any database conflict in what was sent, not only for a taken name.
func refine(req Request, e *Error) *Error {
	switch {
	case e.Status == http.StatusForbidden && req.Method == http.MethodPost && organizePaths[strings.TrimRight(req.Path, "/")]:
		what := req.Subject
		if what == "" {
			what = "a taxonomy item"
		}
		return &Error{Kind: KindPermission, Status: e.Status, Detail: e.Detail, Message: fmt.Sprintf(
			"Mealie refused to create %s: %s (can_organize); an admin can grant it under Admin > Users, or use an existing item instead", what, OrganizePermission)}
	case e.Status == http.StatusBadRequest && strings.EqualFold(e.Detail, "Recipe already exists") &&
		(req.Method == http.MethodPut || req.Method == http.MethodPatch) && strings.HasPrefix(req.Path, "/api/recipes/"):
		what := req.Resource
		if what == "" {
			what = "the recipe"
		}
		return &Error{Kind: KindConflict, Status: e.Status, Detail: e.Detail, Message: fmt.Sprintf(
			"Mealie refused the update of %s with \"Recipe already exists\", which it answers for any conflict in what was sent, not only a taken name: "+
				"most likely a value sent twice where Mealie keeps one (a tag, category or tool listed twice, a repeated ingredient reference), "+
				"or, on a rename, another recipe already having the new name's slug; nothing was changed", what)}
	}
	return e
}

// IsOrganizePermission reports whether err is a create refused for want of
// the "organize group data" permission.
func IsOrganizePermission(err error) bool {
	return err != nil && strings.Contains(err.Error(), OrganizePermission)
}
