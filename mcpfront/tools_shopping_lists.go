package mcpfront

import (
	"context"
	"regexp"
	"strings"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/souskitchen/sous/mcpfront/internal/toolschema"
	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/proto/limits"
)

type manageShoppingListsIn struct {
	Action      string `json:"action" jsonschema:"What to do."`
	ListID      string `json:"list_id,omitempty" jsonschema:"rename, delete: list id or exact name."`
	Name        string `json:"name,omitempty" jsonschema:"create, rename: the new name."`
	ConfirmName string `json:"confirm_name,omitempty" jsonschema:"delete: repeat the list's name."`
}

// manageShoppingListsTool declares manage_shopping_lists.
func manageShoppingListsTool() Tool {
	return newTool(ToolsetShopping, &mcp.Tool{
		Name:        "manage_shopping_lists",
		Description: "Call to create, rename or delete a shopping list. A rename keeps the items; delete is permanent.",
		Annotations: writeAnn(true, false, false),
	}, hasShopping, props{"action": toolschema.Enum("create", "rename", "delete"), "list_id": toolschema.MaxLen(limits.ShoppingListIDChars), "name": toolschema.MaxLen(limits.ShoppingListNameChars), "confirm_name": toolschema.MaxLen(limits.ShoppingListNameChars)}, manageShoppingLists)
}

func manageShoppingLists(ctx context.Context, _ *mcp.CallToolRequest, b Backends, in manageShoppingListsIn) (any, error) {
	type listOut struct {
		ID      string `json:"list_id"`
		Name    string `json:"name"`
		Deleted bool   `json:"deleted,omitempty"`
		Items   *int32 `json:"items_deleted,omitempty"`
	}
	if in.Action == "create" {
		if in.ListID != "" {
			return nil, errorf("list_id is for rename and delete; create takes only name")
		}
		res, err := b.MealPlan.CreateShoppingList(ctx, connect.NewRequest(&mealplanv1.CreateShoppingListRequest{Name: in.Name}))
		if err != nil {
			return nil, err
		}
		return listOut{ID: res.Msg.GetList().GetId(), Name: res.Msg.GetList().GetName()}, nil
	}
	if in.ListID == "" {
		return nil, errorf("list_id is required for %s: the list's id or exact name (get_shopping_list lists them)", in.Action)
	}
	id, err := resolveList(ctx, b, in.ListID)
	if err != nil {
		return nil, err
	}
	switch in.Action {
	case "rename":
		res, err := b.MealPlan.RenameShoppingList(ctx, connect.NewRequest(&mealplanv1.RenameShoppingListRequest{ListId: id, Name: in.Name}))
		if err != nil {
			return nil, onListMiss(ctx, b, in.ListID, err)
		}
		// The name and the counts: the rename kept the items, and
		// get_shopping_list shows them.
		return struct {
			*listCountOut
			Hint string `json:"hint"`
		}{listCounts(res.Msg.GetList()), "renamed; get_shopping_list shows the items"}, nil
	default:
		res, err := b.MealPlan.DeleteShoppingList(ctx, connect.NewRequest(&mealplanv1.DeleteShoppingListRequest{ListId: id, ConfirmName: in.ConfirmName}))
		if err != nil {
			return nil, onListMiss(ctx, b, in.ListID, err)
		}
		n := res.Msg.GetItemCount()
		return listOut{ID: res.Msg.GetListId(), Name: res.Msg.GetName(), Deleted: true, Items: &n}, nil
	}
}

// readAs is a skip's reading when it is worth saying: an exact name needs
// no explanation.
func readAs(how string) string {
	if how == "exact" {
		return ""
	}
	return how
}

// uuidText is a Mealie id as it reaches a tool.
var uuidText = regexp.MustCompile(`^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$`)

// isUUID tells a list id from a list's name: anything else is a name.
func isUUID(s string) bool { return uuidText.MatchString(strings.TrimSpace(s)) }
