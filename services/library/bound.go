package library

import (
	"fmt"
	"strings"

	libraryv1 "github.com/souskitchen/sous/proto/gen/sous/library/v1"
)

// Report list budgets. MCP clients refuse or cut a tool result past about
// 25,000 tokens (Claude Code among them), and a report over a whole
// library can list every recipe: duplicates of a library imported twice,
// or 2,000 recipes without an image. Each report lists items up to a
// budget of characters, which keeps the answer built from it under 60,000
// characters (integration/services/library TestAnswersStayUnderTheBound), and
// says what it left out and how to get it.
const (
	// maxListedChars bounds the text of the listed items of one report:
	// keys, slugs, URLs and messages, about 60% of the whole answer once
	// JSON punctuation and key names are added.
	maxListedChars = 36000
)

// listBudget counts the characters of items as a report lists them.
type listBudget struct{ left int }

func newListBudget() *listBudget { return &listBudget{left: maxListedChars} }

// take reports whether an item of n characters still fits, and counts it.
func (b *listBudget) take(n int) bool {
	const perItem = 12 // JSON quotes, commas and braces around one item
	if n+perItem > b.left {
		b.left = 0
		return false
	}
	b.left -= n + perItem
	return true
}

// joinNotes joins the non-empty one-line notes of a report with "; ".
func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}

// boundDuplicates keeps the groups that fit the budget, in order, and says
// how many were left out. The reason is sent once, on the first group:
// every group carries the same one.
func boundDuplicates(groups []*libraryv1.DuplicateGroup) ([]*libraryv1.DuplicateGroup, string) {
	b := newListBudget()
	for i, g := range groups {
		n := len(g.GetKey())
		for _, r := range g.GetRecipes() {
			n += len(r.GetSlug()) + 3
		}
		if !b.take(n) {
			left := 0
			for _, g := range groups[i:] {
				left += len(g.GetRecipes())
			}
			return groups[:i], fmt.Sprintf("listed %d of %d groups; %d more groups (%d recipes) were left out to keep the answer short: merge or delete these duplicates, then run again for the rest", i, len(groups), len(groups)-i, left)
		}
	}
	return groups, ""
}

// dedupeReasons clears a group's reason when it repeats the previous one,
// so a sentence shared by every group is sent once.
func dedupeReasons(groups []*libraryv1.DuplicateGroup) {
	prev := ""
	for _, g := range groups {
		if g.GetReason() == prev {
			g.Reason = ""
			continue
		}
		prev = g.GetReason()
	}
}

// boundLinks keeps the link results and recipes without an image that fit
// the budget, link results first, and says what was left out.
func boundLinks(res *libraryv1.CheckRecipeLinksResult) string {
	b := newListBudget()
	var notes []string
	for i, l := range res.GetItems() {
		if !b.take(len(l.GetSlug()) + len(l.GetUrl()) + len(l.GetMessage()) + 30) {
			notes = append(notes, fmt.Sprintf("listed %d of %d links that are not ok; fix these, then run again for the rest", i, len(res.Items)))
			res.Items = res.Items[:i]
			break
		}
	}
	for i, r := range res.GetNoImage() {
		// The answer names each recipe as well as its slug
		// ({"name":…,"slug":…}).
		if !b.take(len(r.GetSlug()) + len(r.GetName()) + 20) {
			notes = append(notes, fmt.Sprintf("listed %d of %d recipes without an image; give these one (set_recipe_image), then run again for the rest", i, len(res.NoImage)))
			res.NoImage = res.NoImage[:i]
			break
		}
	}
	return joinNotes(notes...)
}
