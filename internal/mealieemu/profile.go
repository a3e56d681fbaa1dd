package mealieemu

import "fmt"

// profile is what differs between the Mealie versions the emulator can pretend
// to be. Each flag cites its evidence: a recording of the contract suite
// against that real Mealie, under testdata/recordings/<version>/ in the
// integration/contract package, which every plain test run replays against
// the matching profile.
type profile struct {
	// name is the profile's key: "2.0", "2.8", "3.11" or "3.20", and
	// "2.8-pg" or "3.20-pg" for that version on PostgreSQL.
	name string
	// version is what GET /api/app/about reports
	// (testdata/recordings/<version>/TestAboutAndAuth.json).
	version string
	// structuredYield adds recipeServings and recipeYieldQuantity to recipes
	// (2.8 and 3.11: testdata/recordings/<version>/TestRecipeLifecycle.json).
	structuredYield bool
	// householdOnHand replaces the onHand flag of foods and tools with
	// householdsWithIngredientFood / householdsWithTool (2.8 and 3.11:
	// testdata/recordings/<version>/TestTaxonomyCreateRenameDelete.json).
	householdOnHand bool
	// ingredientFlags keeps isFood/disableAmount on ingredients and
	// settings.disableAmount on recipes, 2.x's way of showing only notes.
	// On 2.x a recipe sets every ingredient's flags from its own
	// settings.disableAmount, which a new recipe has on, so a line with a
	// linked unit and food still displays only quantity and note
	// (testdata/recordings/2.0/TestIngredientDisplay.json and
	// 2.8/TestIngredientDisplay.json in the contract package). 3.11 has
	// neither key and always displays quantity, unit, food and note
	// (3.11/TestIngredientDisplay.json).
	ingredientFlags bool
	// placeholderQuantity is the quantity of the "1 Cup Flour" line of a new
	// recipe: 1 on 2.x, 0 on 3.11, whose ingredient quantity defaults to 0
	// (testdata/recordings/<version>/TestRecipeLifecycle.json).
	placeholderQuantity float64
	// pageParamsLast writes a list's next/previous link with page and
	// perPage after the sort parameters: 2.0 writes
	// "/recipes?page=2&perPage=2&orderDirection=desc", 2.8 and 3.11
	// "/recipes?orderDirection=desc&page=2&perPage=2"
	// (testdata/recordings/<version>/TestPaginationEnvelope.json).
	pageParamsLast bool
	// tokenInSelf lists each API token's secret in GET /api/users/self, as
	// 2.0 does; 2.8 and 3.11 list only id, name and createdAt
	// (testdata/recordings/<version>/TestAboutAndAuth.json).
	tokenInSelf bool
	// appInfoLogin is 3.11's GET /api/app/about: allowPasswordLogin and
	// tokenTime added to 2.x's keys
	// (testdata/recordings/3.11/TestAboutAndAuth.json).
	appInfoLogin bool
	// missingRow404 answers a delete of a food or unit that is gone with 404;
	// 2.0 answers 400 with the same body
	// (testdata/recordings/<version>/TestDeleteFoodInUseNullsIngredient.json,
	// its last exchange).
	missingRow404 bool
	// bulkNeedsGroupID makes a bulk tag or categorize whose organizers lack
	// groupId answer 200 and apply nothing, as 3.11 does; 2.x and 3.20
	// apply them (testdata/recordings/<version>/TestVersionSwitches.json).
	bulkNeedsGroupID bool
	// cookbookHousehold adds the owning household {id, name} to a cookbook
	// (testdata/recordings/3.11/TestCookbookQueryFilterString.json).
	cookbookHousehold bool
	// filterCountsJoinRows counts a filtered recipe list's total over the
	// rows of the filter's join, as 2.x does: a recipe whose two tags both
	// satisfy tags.name conditions counts twice in total (and in per_page
	// for perPage=-1) though it is listed once; 3.11 counts recipes
	// (testdata/recordings/<version>/TestCookbookQueryFilterString.json).
	filterCountsJoinRows bool
	// nlpNeedsModel is 2.0's nlp parser, which runs CRF++ with a model file
	// Mealie's Docker build downloads; on an install without them (as the
	// recorded one, testdata/recordings/2.0/TestParserShapes.json in the
	// contract package) nlp, the default parser, is an unhandled 500. A
	// server started WithoutNLPModel answers so. 2.8 and 3.11 parse with the
	// ingredient-parser-nlp package and need no model file.
	nlpNeedsModel bool
	// stuckRenameLocked is 3.11's answer to writes on a recipe whose stored
	// slug a PATCH {name} left behind: PATCH is 403 Permission Denied and
	// DELETE by slug or id 500 IndexError, where 2.x answers PATCH with 500
	// NoResultFound and deletes it
	// (testdata/recordings/<version>/TestPatchNameKeepsStoredSlug.json).
	stuckRenameLocked bool
	// suggestions is GET /api/recipes/suggestions, the recipe finder; on 2.0
	// the path reads as a recipe slug and answers 404
	// (testdata/recordings/<version>/TestVersionSwitches.json).
	suggestions bool
	// cookbookRecipes makes GET /api/households/cookbooks/{id} embed the
	// matching recipes, as 2.x does and 3.11 does not
	// (testdata/recordings/<version>/TestVersionSwitches.json).
	cookbookRecipes bool
	// extraEntryTypes accepts snack, drink and dessert as meal-plan entry
	// types; 2.x answers 422 for snack
	// (testdata/recordings/<version>/TestVersionSwitches.json).
	extraEntryTypes bool
	// organizerGroupID adds groupId to tags and categories inside recipes
	// and in lists, to a tag read, and to tools
	// (testdata/recordings/3.11/TestOrganizerObjectsNeedIDNameSlug.json and
	// TestTaxonomyCreateRenameDelete.json).
	organizerGroupID bool
	// caseInsensitiveFilter compares strings in queryFilter and cookbook
	// filters without regard to case, as 2.8 and 3.11 do; 2.0 compares
	// case-sensitively (testdata/recordings/<version>/TestVersionSwitches.json).
	caseInsensitiveFilter bool
	// lastMadeKeepsLatest keeps a recipe's lastMade when PATCH last-made
	// sends an earlier time, as 2.8 and 3.11 do (they keep last-made per
	// household and show the newest); 2.0 stores whatever is sent. The
	// contract test TestBackdatedLastMade asserts the day per version and
	// passed against each real Mealie; its recordings
	// (testdata/recordings/<version>/TestBackdatedLastMade.json) hold the
	// exchanges, with the times normalised away.
	lastMadeKeepsLatest bool
	// patchNameMovesSlug is 3.20's recipe update, which sets the stored slug
	// from the name whenever the name changes and keeps it otherwise: PATCH
	// {name} moves the slug (old slug 404, new 200, and the recipe takes
	// PATCHes and DELETE there), a PATCH {slug} that keeps the name answers
	// 200 and changes nothing, and a name whose slug another recipe holds is
	// 400 "Recipe already exists"
	// (testdata/recordings/3.20/TestPatchNameKeepsStoredSlug.json). 2.0 to
	// 3.11 keep the stored slug on PATCH {name}: the answer shows
	// slugify(name), GET by the old slug still answers and GET by the new
	// one is 404 (testdata/recordings/<version>/TestPatchNameKeepsStoredSlug.json).
	patchNameMovesSlug bool
	// idlessOrganizerCreated is 3.20's answer to a tag or category sent as
	// {name, slug} without a known id in a recipe PATCH: its recipe update
	// gives every organizer the group's id, so the row is created (slug
	// from the name) and linked, 200
	// (testdata/recordings/3.20/TestOrganizerObjectsNeedIDNameSlug.json).
	// 2.0 to 3.11 fail with 500 TypeError and create nothing
	// (testdata/recordings/<version>/TestOrganizerObjectsNeedIDNameSlug.json).
	idlessOrganizerCreated bool
	// aiProviders is 3.20's GET /api/app/about: OpenAI moved to per-group AI
	// providers, so enableOpenai and enableOpenaiImageServices are gone,
	// and allowedIframeHosts is new
	// (testdata/recordings/3.20/TestAboutAndAuth.json, its first exchange);
	// GET /api/groups/self says whether AI is enabled (aiEnabled, the same
	// recording).
	aiProviders bool
	// importFailure400 answers a failed URL import 400 with the exception's
	// class name as the message ("gaierror" for a host that does not
	// resolve), where 2.0 to 3.11 answer a bare 500
	// (testdata/recordings/3.20/TestErrorBodyShapes.json).
	importFailure400 bool
	// announcements adds lastReadAnnouncement (null) and showAnnouncements
	// (true) to GET /api/users/self
	// (testdata/recordings/3.20/TestAboutAndAuth.json).
	announcements bool
	// unitStandards adds standardQuantity and standardUnit (both null) to
	// every unit, stored or as the parser makes it
	// (testdata/recordings/3.20/TestTaxonomyCreateRenameDelete.json,
	// TestIngredientDisplay.json and TestParserShapes.json).
	unitStandards bool
	// nlpTitleNull answers an nlp-parsed ingredient's title as null; 3.11
	// answers "" (testdata/recordings/<version>/TestParserShapes.json, the
	// nlp exchange).
	nlpTitleNull bool
	// containsAllOneIsIn reads a CONTAINS ALL of one value as IN, on the
	// row of the relation's join, as 3.11 and 3.20's query filter builder
	// does (a list of two or more is a subquery each, as on 2.x): so
	// tags.name IN ["A", "B"] AND tags.name CONTAINS ALL ["Q"] matches
	// nothing there, and ["Q", "Q"] what 2.x matches with ["Q"]
	// (testdata/recordings/<version>/TestCookbookByTimeTag.json in the
	// contract package).
	containsAllOneIsIn bool
	// postgres is Mealie on PostgreSQL (DB_ENGINE=postgres): a search
	// without quotes is pg_trgm's fuzzy search, filtered and ordered by
	// word similarity, and a quoted one is tokenized with case-sensitive
	// LIKE (search.go; testdata/recordings/<version>-pg/TestSearchByEngine.json).
	// GET /api/admin/about says dbType "postgres".
	postgres bool
	// seedsSprig: the units seeder's en-US list has "sprig" (3.x); 2.x
	// seeds 23 units without it
	// (testdata/recordings/<version>/TestUnitsSeeder.json).
	seedsSprig bool
	// Deleting a food still used by a recipe succeeds on every recorded
	// version and nulls the ingredient's food
	// (testdata/recordings/<version>/TestDeleteFoodInUseNullsIngredient.json).
}

// profiles are the versions the emulator knows.
var profiles = map[string]profile{
	"2.0": {
		name: "2.0", version: "v2.0.0",
		ingredientFlags: true, placeholderQuantity: 1, tokenInSelf: true, cookbookRecipes: true,
		filterCountsJoinRows: true, nlpNeedsModel: true,
	},
	"2.8": {
		name: "2.8", version: "v2.8.0",
		structuredYield: true, householdOnHand: true, ingredientFlags: true, placeholderQuantity: 1,
		pageParamsLast: true, missingRow404: true, filterCountsJoinRows: true,
		suggestions: true, cookbookRecipes: true, caseInsensitiveFilter: true,
		lastMadeKeepsLatest: true,
	},
	"3.11": {
		name: "3.11", version: "v3.11.0",
		structuredYield: true, householdOnHand: true, suggestions: true,
		pageParamsLast: true, appInfoLogin: true, cookbookHousehold: true, bulkNeedsGroupID: true,
		missingRow404: true, stuckRenameLocked: true,
		extraEntryTypes: true, organizerGroupID: true, caseInsensitiveFilter: true,
		lastMadeKeepsLatest: true, containsAllOneIsIn: true, seedsSprig: true,
	},
	// 3.20 is 3.11 with what its recordings show otherwise: no
	// bulkNeedsGroupID (testdata/recordings/3.20/TestVersionSwitches.json
	// applies a tag sent without groupId), no stuckRenameLocked (a rename
	// moves the slug, patchNameMovesSlug), and the 3.20 flags on.
	"3.20": {
		name: "3.20", version: "v3.20.1",
		structuredYield: true, householdOnHand: true, suggestions: true,
		pageParamsLast: true, appInfoLogin: true, cookbookHousehold: true, missingRow404: true,
		extraEntryTypes: true, organizerGroupID: true, caseInsensitiveFilter: true,
		patchNameMovesSlug: true, idlessOrganizerCreated: true, aiProviders: true,
		announcements: true, unitStandards: true, nlpTitleNull: true, importFailure400: true,
		lastMadeKeepsLatest: true, // testdata/recordings/3.20/TestBackdatedLastMade.json
		containsAllOneIsIn:  true, seedsSprig: true,
	},
}

// onPostgres is a profile on PostgreSQL: the same version with postgres
// set, named "<version>-pg". Only what the PostgreSQL recordings show
// differs (testdata/recordings/<version>-pg/ in the contract package).
func onPostgres(p profile) profile {
	p.name += "-pg"
	p.postgres = true
	return p
}

func init() {
	for _, v := range []string{"2.8", "3.20"} {
		p := onPostgres(profiles[v])
		profiles[p.name] = p
	}
}

// lookupProfile returns the named profile.
func lookupProfile(name string) (profile, error) {
	p, ok := profiles[name]
	if !ok {
		return profile{}, fmt.Errorf("mealieemu: unknown Mealie version %q (want 2.0, 2.8, 3.11 or 3.20, or 2.8-pg or 3.20-pg on PostgreSQL)", name)
	}
	return p, nil
}
