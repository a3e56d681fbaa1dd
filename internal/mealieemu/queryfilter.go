package mealieemu

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"
)

// This file is a small reimplementation of Mealie's query filter language
// (mealie/schema/response/query_filter.py in Mealie 2.0): comparisons such as
// `tags.name IN ["Dinner"]` or `name LIKE "%cake%"` joined by AND and OR,
// grouped by parentheses. Attribute names may be camelCase or snake_case.

// attrKind is the column type behind an attribute, which decides how a value is
// validated and compared.
type attrKind int

const (
	kindString attrKind = iota
	kindUUID
	kindTime
	kindNumber
	kindBool
)

// attrDef describes one filterable attribute of a row type. get returns every
// value the row has for it: several for a to-many relation (a recipe's tag
// names), none when it is null.
type attrDef[T any] struct {
	kind attrKind
	get  func(T) []any
}

// filterError is a query filter that Mealie refuses. status 500 stands for a
// filter Mealie fails to parse without handling it (services/library/testdata/recipes_list__queryfilter_broken_syntax.json).
type filterError struct {
	status int
	msg    string
}

func (e *filterError) Error() string { return e.msg }

func (e *filterError) write(w http.ResponseWriter) {
	if e.status == http.StatusInternalServerError {
		writeInternal(w)
		return
	}
	writeDetail(w, e.status, e.msg)
}

func badFilter(format string, a ...any) *filterError {
	return &filterError{status: http.StatusBadRequest, msg: fmt.Sprintf(format, a...)}
}

// filterPart is one entry of the parsed filter as a cookbook reports it in
// queryFilter.parts (services/library/testdata/cookbooks__create_ok.json).
type filterPart struct {
	LeftParen, RightParen string
	Logical               string
	Attr, Op              string
	Value                 any // string, []string or nil
}

// filterNode is a parsed filter: a comparison, or an operator over two nodes.
type filterNode struct {
	op          string // "AND", "OR", or "" for a comparison
	left, right *filterNode
	cmp         *comparison
}

type comparison struct {
	attr   string // snake_case
	op     string
	values []string
	isNull bool
	list   bool
}

// queryFilter is a parsed filter bound to a row type.
type queryFilter[T any] struct {
	root  *filterNode
	parts []filterPart
	attrs map[string]attrDef[T]
	// foldCase compares strings case-insensitively, as Mealie does from PR
	// #5162 on (profile caseInsensitiveFilter).
	foldCase bool
	// oneIsIn reads a CONTAINS ALL of one value as IN (profile
	// containsAllOneIsIn).
	oneIsIn bool
}

var camelBoundary = regexp.MustCompile(`([a-z0-9])([A-Z])`)

// decamelize turns "recipeCategory.name" into "recipe_category.name", as
// Mealie does with humps.decamelize before resolving an attribute.
func decamelize(s string) string {
	return strings.ToLower(camelBoundary.ReplaceAllString(s, "${1}_${2}"))
}

// keywords are the relational keywords, longest first so that "NOT IN" wins
// over "IN".
var keywords = []string{"CONTAINS ALL", "NOT LIKE", "IS NOT", "NOT IN", "LIKE", "IS", "IN"}

type token struct {
	kind string // "(", ")", "[", "]", ",", "str", "word", "op"
	text string
}

func tokenize(s string) ([]token, *filterError) {
	var toks []token
	rs := []rune(s)
	for i := 0; i < len(rs); {
		c := rs[i]
		switch {
		case unicode.IsSpace(c):
			i++
		case c == '[':
			// Mealie reads a list without regard to quotes
			// (_break_components_into_base_components in
			// mealie/services/query_filter/builder.py): it ends at the
			// first ']' and splits at every ','; each piece is trimmed and
			// loses its enclosing quotes only when longer than two
			// characters. So `["a, b"]` is the two values `"a` and `b"`.
			j := i + 1
			for j < len(rs) && rs[j] != ']' {
				j++
			}
			if j >= len(rs) {
				return nil, syntaxError()
			}
			toks = append(toks, token{"[", "["})
			if inner := strings.TrimSpace(string(rs[i+1 : j])); inner != "" {
				for k, piece := range strings.Split(inner, ",") {
					if k > 0 {
						toks = append(toks, token{",", ","})
					}
					piece = strings.TrimSpace(piece)
					if len(piece) > 2 && piece[0] == '"' && piece[len(piece)-1] == '"' {
						toks = append(toks, token{"str", piece[1 : len(piece)-1]})
					} else {
						toks = append(toks, token{"word", piece})
					}
				}
			}
			toks = append(toks, token{"]", "]"})
			i = j + 1
		case strings.ContainsRune("()[],", c):
			toks = append(toks, token{string(c), string(c)})
			i++
		case c == '"':
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				j++
			}
			if j >= len(rs) {
				return nil, &filterError{status: http.StatusInternalServerError, msg: "unterminated string"}
			}
			toks = append(toks, token{"str", string(rs[i+1 : j])})
			i = j + 1
		case strings.ContainsRune("<>=", c):
			op := string(c)
			if i+1 < len(rs) && (string(rs[i:i+2]) == ">=" || string(rs[i:i+2]) == "<=" || string(rs[i:i+2]) == "<>") {
				op = string(rs[i : i+2])
			}
			toks = append(toks, token{"op", op})
			i += len([]rune(op))
		default:
			j := i
			for j < len(rs) && !unicode.IsSpace(rs[j]) && !strings.ContainsRune(`()[],"<>=`, rs[j]) {
				j++
			}
			toks = append(toks, token{"word", string(rs[i:j])})
			i = j
		}
	}
	return toks, nil
}

// parseQueryFilter parses s against the attributes of a row type. Unknown
// attributes and malformed operands are 400s with Mealie's wording
// (services/library/testdata/recipes_list__queryfilter_unknown_attr.json); a comparison with no value is
// the unhandled 500 Mealie gives (services/library/testdata/recipes_list__queryfilter_broken_syntax.json).
func parseQueryFilter[T any](s string, attrs map[string]attrDef[T]) (*queryFilter[T], *filterError) {
	if strings.Count(s, "(") != strings.Count(s, ")") {
		return nil, badFilter("invalid query string: parenthesis are unbalanced")
	}
	toks, ferr := tokenize(s)
	if ferr != nil {
		return nil, ferr
	}
	p := &filterParser[T]{toks: toks, attrs: attrs}
	root, ferr := p.expr()
	if ferr != nil {
		return nil, ferr
	}
	if p.pos != len(p.toks) {
		return nil, &filterError{status: http.StatusInternalServerError, msg: "trailing input"}
	}
	return &queryFilter[T]{root: root, parts: p.parts, attrs: attrs}, nil
}

type filterParser[T any] struct {
	toks  []token
	pos   int
	attrs map[string]attrDef[T]
	parts []filterPart
	// pendingLeft and pendingLogical belong to the next comparison's part.
	pendingLeft    string
	pendingLogical string
}

func (p *filterParser[T]) peek() *token {
	if p.pos < len(p.toks) {
		return &p.toks[p.pos]
	}
	return nil
}

func syntaxError() *filterError {
	return &filterError{status: http.StatusInternalServerError, msg: "invalid query string"}
}

// expr folds terms from the right, as Mealie's _consolidate_group does: with no
// precedence between AND and OR, "a AND b OR c" means "a AND (b OR c)".
func (p *filterParser[T]) expr() (*filterNode, *filterError) {
	var nodes []*filterNode
	var ops []string
	for {
		n, err := p.term()
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, n)
		t := p.peek()
		if t == nil || t.kind != "word" {
			break
		}
		up := strings.ToUpper(t.text)
		if up != "AND" && up != "OR" {
			return nil, syntaxError()
		}
		ops = append(ops, up)
		p.pendingLogical = up
		p.pos++
	}
	root := nodes[len(nodes)-1]
	for i := len(nodes) - 2; i >= 0; i-- {
		root = &filterNode{op: ops[i], left: nodes[i], right: root}
	}
	return root, nil
}

func (p *filterParser[T]) term() (*filterNode, *filterError) {
	t := p.peek()
	if t == nil {
		return nil, syntaxError()
	}
	if t.kind == "(" {
		p.pos++
		p.pendingLeft += "("
		n, err := p.expr()
		if err != nil {
			return nil, err
		}
		if t := p.peek(); t == nil || t.kind != ")" {
			return nil, syntaxError()
		}
		p.pos++
		if len(p.parts) > 0 {
			p.parts[len(p.parts)-1].RightParen += ")"
		}
		return n, nil
	}
	return p.comparison()
}

func (p *filterParser[T]) comparison() (*filterNode, *filterError) {
	t := p.peek()
	if t.kind != "word" {
		return nil, syntaxError()
	}
	rawAttr := t.text
	attr := decamelize(rawAttr)
	p.pos++
	op, err := p.operator()
	if err != nil {
		return nil, err
	}
	c := &comparison{attr: attr, op: op}
	var partValue any
	switch op {
	case "IN", "NOT IN", "CONTAINS ALL":
		t := p.peek()
		if t == nil || t.kind != "[" {
			return nil, badFilter("invalid query string: %s must be given a list of values enclosed by [ and ]", op)
		}
		p.pos++
		vals := []string{}
		for {
			t := p.peek()
			if t == nil {
				return nil, syntaxError()
			}
			p.pos++
			if t.kind == "]" {
				break
			}
			if t.kind == "," {
				continue
			}
			if t.kind != "str" && t.kind != "word" {
				return nil, syntaxError()
			}
			vals = append(vals, t.text)
		}
		c.values, c.list, partValue = vals, true, vals
	default:
		t := p.peek()
		if t == nil || (t.kind != "str" && t.kind != "word") {
			return nil, syntaxError()
		}
		p.pos++
		if op == "IS" || op == "IS NOT" {
			if l := strings.ToLower(t.text); l != "null" && l != "none" {
				return nil, badFilter(`invalid query string: "%s" can only be used with "NULL", not "%s"`, op, t.text)
			}
			c.isNull = true
		} else {
			c.values, partValue = []string{t.text}, t.text
		}
	}
	// Mealie resolves attributes after the whole string parsed, so a syntax
	// error wins over an unknown attribute.
	if _, ok := p.attrs[attr]; !ok {
		return nil, badFilter("invalid attribute string: '%s' does not exist on this schema", attr)
	}
	if err := p.validate(c); err != nil {
		return nil, err
	}
	p.parts = append(p.parts, filterPart{LeftParen: p.pendingLeft, Logical: p.pendingLogical, Attr: attr, Op: op, Value: partValue})
	p.pendingLeft, p.pendingLogical = "", ""
	return &filterNode{cmp: c}, nil
}

func (p *filterParser[T]) operator() (string, *filterError) {
	t := p.peek()
	if t == nil {
		return "", syntaxError()
	}
	if t.kind == "op" {
		p.pos++
		return t.text, nil
	}
	if t.kind != "word" {
		return "", syntaxError()
	}
	for _, kw := range keywords {
		words := strings.Fields(kw)
		if p.pos+len(words) > len(p.toks) {
			continue
		}
		match := true
		for i, w := range words {
			tk := p.toks[p.pos+i]
			if tk.kind != "word" || !strings.EqualFold(tk.text, w) {
				match = false
				break
			}
		}
		if match {
			p.pos += len(words)
			return kw, nil
		}
	}
	return "", syntaxError()
}

// validate checks values against the attribute's type, as Mealie's
// QueryFilterBuilderComponent.validate does.
func (p *filterParser[T]) validate(c *comparison) *filterError {
	def := p.attrs[c.attr]
	if (c.op == "LIKE" || c.op == "NOT LIKE") && def.kind != kindString {
		return badFilter(`invalid query string: "%s" can only be used with string columns`, c.op)
	}
	for _, v := range c.values {
		switch def.kind {
		case kindUUID:
			if _, err := uuid.Parse(v); err != nil {
				return badFilter("invalid query string: invalid UUID '%s'", v)
			}
		case kindTime:
			if _, ok := parseLooseTime(v); !ok {
				return badFilter("invalid query string: unknown date or datetime format '%s'", v)
			}
		case kindNumber:
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				return badFilter("invalid query string: invalid number '%s'", v)
			}
		}
	}
	return nil
}

// parseLooseTime accepts the date and datetime forms sous and Mealie's clients
// send.
func parseLooseTime(v string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999", "2006-01-02T15:04:05", "2006-01-02 15:04:05", layoutDate} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// matches evaluates the filter against a row.
func (q *queryFilter[T]) matches(row T) bool { return q.matchCount(row) > 0 }

// matchCount is how many rows of Mealie's join satisfy the filter for one
// row: the filter is a SQL WHERE over the row joined once with each to-many
// relation it names ("tags" for tags.name), so every condition on one
// relation must hold for the same related row. Two conditions on the same
// relation ANDed (tags.name IN ["A"] AND tags.name IN ["B"]) therefore match
// nothing on every recorded version
// (testdata/recordings/<version>/TestCookbookQueryFilterString.json in the
// contract package). A row without related rows joins once, with nulls.
// CONTAINS ALL is a subquery over all related rows.
func (q *queryFilter[T]) matchCount(row T) int {
	rels := q.relations()
	sizes := make([]int, len(rels))
	for i, rel := range rels {
		sizes[i] = max(1, len(q.attrs[rel.attr].get(row)))
	}
	at := map[string]int{}
	count := 0
	var walk func(i int)
	walk = func(i int) {
		if i == len(rels) {
			if q.eval(q.root, row, at) {
				count++
			}
			return
		}
		for k := range sizes[i] {
			at[rels[i].name] = k
			walk(i + 1)
		}
	}
	walk(0)
	return count
}

// filterRelation is a to-many relation a filter joins, and one of its
// attributes the filter names.
type filterRelation struct{ name, attr string }

// relationOf is the relation an attribute belongs to: what precedes its last
// dot ("tags" for "tags.name"), or "" for the row's own columns.
func relationOf(attr string) string {
	if i := strings.LastIndex(attr, "."); i > 0 {
		return attr[:i]
	}
	return ""
}

// relations lists the relations the filter names, in order of appearance.
func (q *queryFilter[T]) relations() []filterRelation {
	var out []filterRelation
	seen := map[string]bool{}
	var walk func(n *filterNode)
	walk = func(n *filterNode) {
		if n == nil {
			return
		}
		if n.cmp != nil {
			if rel := relationOf(n.cmp.attr); rel != "" && !seen[rel] {
				seen[rel] = true
				out = append(out, filterRelation{rel, n.cmp.attr})
			}
			return
		}
		walk(n.left)
		walk(n.right)
	}
	walk(q.root)
	return out
}

// eval evaluates the filter on one joined row: at says which related row of
// each relation is joined.
func (q *queryFilter[T]) eval(n *filterNode, row T, at map[string]int) bool {
	switch n.op {
	case "AND":
		return q.eval(n.left, row, at) && q.eval(n.right, row, at)
	case "OR":
		return q.eval(n.left, row, at) || q.eval(n.right, row, at)
	}
	c := n.cmp
	def := q.attrs[c.attr]
	have := def.get(row)
	if c.op == "CONTAINS ALL" && !(q.oneIsIn && len(c.values) == 1) {
		for _, v := range c.values {
			if !anyMatch(have, func(h any) bool { return q.compare(def.kind, h, v) == 0 }) {
				return false
			}
		}
		return true
	}
	if rel := relationOf(c.attr); rel != "" {
		if k := at[rel]; k < len(have) {
			have = have[k : k+1]
		} else {
			have = nil
		}
	}
	switch c.op {
	case "IS":
		return len(have) == 0
	case "IS NOT":
		return len(have) > 0
	}
	return anyMatch(have, func(h any) bool {
		switch c.op {
		case "=":
			return q.compare(def.kind, h, c.values[0]) == 0
		case "<>":
			return q.compare(def.kind, h, c.values[0]) != 0
		case ">":
			return q.compare(def.kind, h, c.values[0]) > 0
		case "<":
			return q.compare(def.kind, h, c.values[0]) < 0
		case ">=":
			return q.compare(def.kind, h, c.values[0]) >= 0
		case "<=":
			return q.compare(def.kind, h, c.values[0]) <= 0
		case "IN", "CONTAINS ALL": // one value, read as IN (oneIsIn)
			return anyString(c.values, func(v string) bool { return q.compare(def.kind, h, v) == 0 })
		case "NOT IN":
			return !anyString(c.values, func(v string) bool { return q.compare(def.kind, h, v) == 0 })
		case "LIKE":
			return likeMatch(fmt.Sprint(h), c.values[0])
		case "NOT LIKE":
			return !likeMatch(fmt.Sprint(h), c.values[0])
		}
		return false
	})
}

func anyMatch(vals []any, f func(any) bool) bool {
	for _, v := range vals {
		if f(v) {
			return true
		}
	}
	return false
}

func anyString(vals []string, f func(string) bool) bool {
	for _, v := range vals {
		if f(v) {
			return true
		}
	}
	return false
}

// compare is compareValue with the filter's case rule applied to strings.
func (q *queryFilter[T]) compare(kind attrKind, have any, want string) int {
	if q.foldCase && kind == kindString {
		return strings.Compare(strings.ToLower(fmt.Sprint(have)), strings.ToLower(want))
	}
	return compareValue(kind, have, want)
}

// compareValue compares a row value with a filter operand. Strings compare
// case-sensitively, as SQLite's "=" does in Mealie 2.0, unless foldCase
// (testdata/recordings/<version>/TestVersionSwitches.json in the contract
// package).
func compareValue(kind attrKind, have any, want string) int {
	switch kind {
	case kindUUID:
		return strings.Compare(strings.ToLower(fmt.Sprint(have)), strings.ToLower(want))
	case kindTime:
		w, _ := parseLooseTime(want)
		h := have.(time.Time)
		if len(want) == len(layoutDate) {
			h = time.Date(h.Year(), h.Month(), h.Day(), 0, 0, 0, 0, time.UTC)
		}
		return h.Compare(w)
	case kindNumber:
		w, _ := strconv.ParseFloat(want, 64)
		h, _ := have.(float64)
		switch {
		case h < w:
			return -1
		case h > w:
			return 1
		}
		return 0
	case kindBool:
		w := want != "" && (strings.ContainsRune("tTyY", rune(want[0])) || want == "1")
		if have.(bool) == w {
			return 0
		}
		return 1
	}
	return strings.Compare(fmt.Sprint(have), want)
}

// likeMatch is SQL LIKE with % and _ wildcards; SQLite's LIKE ignores ASCII case.
func likeMatch(s, pattern string) bool {
	var b strings.Builder
	b.WriteString("(?is)^")
	for _, r := range pattern {
		switch r {
		case '%':
			b.WriteString(".*")
		case '_':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(s)
}

// renderParts renders the parsed filter as Mealie's QueryFilterJSON
// (services/library/testdata/cookbooks__create_ok.json "queryFilter").
func renderParts(parts []filterPart) object {
	out := make([]any, 0, len(parts))
	opt := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	for _, p := range parts {
		out = append(out, object{
			{"leftParenthesis", opt(p.LeftParen)}, {"rightParenthesis", opt(p.RightParen)},
			{"logicalOperator", opt(p.Logical)}, {"attributeName", p.Attr},
			{"relationalOperator", p.Op}, {"value", p.Value},
		})
	}
	return object{{"parts", out}}
}

// recipe attributes -------------------------------------------------------

func one(v any) []any { return []any{v} }

func optOne(s *string) []any {
	if s == nil {
		return nil
	}
	return []any{*s}
}

func (st *store) organizerValues(list []*organizer, ids []string, pick func(*organizer) any) []any {
	var out []any
	for _, id := range ids {
		if o := findOrganizer(list, id); o != nil {
			out = append(out, pick(o))
		}
	}
	return out
}

// recipeFilterAttrs builds the attribute table for recipes. The store is
// needed to resolve organizer names, so it is bound per request.
func (st *store) recipeFilterAttrs() map[string]attrDef[*recipe] {
	org := func(list func() []*organizer, ids func(*recipe) []string) (idDef, nameDef, slugDef attrDef[*recipe]) {
		idDef = attrDef[*recipe]{kindUUID, func(r *recipe) []any {
			return st.organizerValues(list(), ids(r), func(o *organizer) any { return o.ID })
		}}
		nameDef = attrDef[*recipe]{kindString, func(r *recipe) []any {
			return st.organizerValues(list(), ids(r), func(o *organizer) any { return o.Name })
		}}
		slugDef = attrDef[*recipe]{kindString, func(r *recipe) []any {
			return st.organizerValues(list(), ids(r), func(o *organizer) any { return o.Slug })
		}}
		return
	}
	tagID, tagName, tagSlug := org(func() []*organizer { return st.tags }, func(r *recipe) []string { return r.TagIDs })
	catID, catName, catSlug := org(func() []*organizer { return st.categories }, func(r *recipe) []string { return r.CategoryIDs })
	toolID, toolName, toolSlug := org(func() []*organizer { return st.tools }, func(r *recipe) []string { return r.ToolIDs })
	str := func(f func(*recipe) string) attrDef[*recipe] {
		return attrDef[*recipe]{kindString, func(r *recipe) []any { return one(f(r)) }}
	}
	optStr := func(f func(*recipe) *string) attrDef[*recipe] {
		return attrDef[*recipe]{kindString, func(r *recipe) []any { return optOne(f(r)) }}
	}
	tm := func(f func(*recipe) time.Time) attrDef[*recipe] {
		return attrDef[*recipe]{kindTime, func(r *recipe) []any { return one(f(r)) }}
	}
	return map[string]attrDef[*recipe]{
		"id":           {kindUUID, func(r *recipe) []any { return one(r.ID) }},
		"user_id":      {kindUUID, func(r *recipe) []any { return one(st.user.ID) }},
		"group_id":     {kindUUID, func(r *recipe) []any { return one(st.user.GroupID) }},
		"household_id": {kindUUID, func(r *recipe) []any { return one(st.user.HouseholdID) }},
		"name":         str(func(r *recipe) string { return r.Name }),
		"slug":         str(func(r *recipe) string { return r.Slug }),
		"description":  str(func(r *recipe) string { return r.Description }),
		"recipe_yield": optStr(func(r *recipe) *string { return r.Yield }),
		"total_time":   optStr(func(r *recipe) *string { return r.TotalTime }),
		"prep_time":    optStr(func(r *recipe) *string { return r.PrepTime }),
		"cook_time":    optStr(func(r *recipe) *string { return r.CookTime }),
		"perform_time": optStr(func(r *recipe) *string { return r.PerformTime }),
		"org_url":      optStr(func(r *recipe) *string { return r.OrgURL }),
		"rating": {kindNumber, func(r *recipe) []any {
			if r.Rating == nil {
				return nil
			}
			return one(*r.Rating)
		}},
		"date_added":   tm(func(r *recipe) time.Time { return r.DateAdded }),
		"date_updated": tm(func(r *recipe) time.Time { return r.DateUpdated }),
		"created_at":   tm(func(r *recipe) time.Time { return r.CreatedAt }),
		"updated_at":   tm(func(r *recipe) time.Time { return r.UpdatedAt }),
		"update_at":    tm(func(r *recipe) time.Time { return r.UpdatedAt }),
		"last_made": {kindTime, func(r *recipe) []any {
			if r.LastMade == nil {
				return nil
			}
			return one(*r.LastMade)
		}},
		"tags.id": tagID, "tags.name": tagName, "tags.slug": tagSlug,
		"recipe_category.id": catID, "recipe_category.name": catName, "recipe_category.slug": catSlug,
		"tools.id": toolID, "tools.name": toolName, "tools.slug": toolSlug,
		"recipe_ingredient.food.id": {kindUUID, func(r *recipe) []any {
			var out []any
			for _, in := range r.Ingredients {
				if in.FoodID != nil {
					out = append(out, *in.FoodID)
				}
			}
			return out
		}},
		"recipe_ingredient.food.name": {kindString, func(r *recipe) []any {
			var out []any
			for _, in := range r.Ingredients {
				if in.FoodID != nil {
					if f := st.foodByID(*in.FoodID); f != nil {
						out = append(out, f.Name)
					}
				}
			}
			return out
		}},
		"recipe_ingredient.note": {kindString, func(r *recipe) []any {
			var out []any
			for _, in := range r.Ingredients {
				out = append(out, in.Note)
			}
			return out
		}},
	}
}
