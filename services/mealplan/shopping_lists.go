package mealplan

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"connectrpc.com/connect"

	mealplanv1 "github.com/souskitchen/sous/proto/gen/sous/mealplan/v1"
	"github.com/souskitchen/sous/services/internal/mealie"
)

// CreateShoppingList makes an empty list; a name in use is refused.
func (s *Service) CreateShoppingList(ctx context.Context, req *connect.Request[mealplanv1.CreateShoppingListRequest]) (*connect.Response[mealplanv1.CreateShoppingListResponse], error) {
	name, err := listName("name", req.Msg.GetName())
	if err != nil {
		return nil, err
	}
	// Two calls naming one new list make one list.
	unlock, err := s.writes.Lock(ctx, listNameKey(name))
	if err != nil {
		return nil, connect.NewError(connect.CodeCanceled, err)
	}
	defer unlock()
	lists, err := s.mealie.ListShoppingLists(ctx)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if l := listNamed(lists, name); l != nil {
		return nil, connect.NewError(connect.CodeAlreadyExists, fmt.Errorf("the household already has a shopping list named %q (%s); use it, or give another name", deref(l.Name), l.ID))
	}
	l, err := s.mealie.CreateShoppingList(ctx, name)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&mealplanv1.CreateShoppingListResponse{List: &mealplanv1.ShoppingListSummary{Id: l.ID, Name: deref(l.Name)}}), nil
}

// RenameShoppingList renames a list, sending it back whole, and reads it
// back to make sure every item stayed.
func (s *Service) RenameShoppingList(ctx context.Context, req *connect.Request[mealplanv1.RenameShoppingListRequest]) (*connect.Response[mealplanv1.RenameShoppingListResponse], error) {
	id, err := checkListID(req.Msg.GetListId())
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, invalid("list_id is required")
	}
	name, err := listName("name", req.Msg.GetName())
	if err != nil {
		return nil, err
	}
	// The list is sent back whole (Mealie's PUT replaces its items), so
	// an item another sous write adds between the read and the PUT would
	// be lost: the list's key is held throughout, and the new name's.
	unlock, err := s.writes.LockAll(ctx, listKey(id), listNameKey(name))
	if err != nil {
		return nil, connect.NewError(connect.CodeCanceled, err)
	}
	defer unlock()
	lists, err := s.mealie.ListShoppingLists(ctx)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if l := listNamed(lists, name); l != nil && l.ID != id {
		return nil, connect.NewError(connect.CodeAlreadyExists, fmt.Errorf("another shopping list is already named %q (%s)", deref(l.Name), l.ID))
	}
	list, err := s.mealie.GetShoppingList(ctx, id)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if deref(list.Name) != name {
		if _, err := s.mealie.RenameShoppingList(ctx, list, name); err != nil {
			return nil, mealie.ConnectError(err)
		}
	}
	after, err := s.mealie.GetShoppingList(ctx, id)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if len(after.ListItems) != len(list.ListItems) {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("the list was renamed but Mealie now holds %d items where it held %d", len(after.ListItems), len(list.ListItems)))
	}
	return connect.NewResponse(&mealplanv1.RenameShoppingListResponse{List: shapeList(after)}), nil
}

// DeleteShoppingList deletes a list once its name is repeated.
func (s *Service) DeleteShoppingList(ctx context.Context, req *connect.Request[mealplanv1.DeleteShoppingListRequest]) (*connect.Response[mealplanv1.DeleteShoppingListResponse], error) {
	id, err := checkListID(req.Msg.GetListId())
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, invalid("list_id is required")
	}
	confirm := strings.TrimSpace(req.Msg.GetConfirmName())
	if confirm == "" {
		return nil, invalid("confirm_name is required: repeat the list's name to delete it")
	}
	unlock, err := s.writes.Lock(ctx, listKey(id))
	if err != nil {
		return nil, connect.NewError(connect.CodeCanceled, err)
	}
	defer unlock()
	list, err := s.mealie.GetShoppingList(ctx, id)
	if err != nil {
		return nil, mealie.ConnectError(err)
	}
	if !strings.EqualFold(strings.TrimSpace(deref(list.Name)), confirm) {
		return nil, invalid("confirm_name %q does not match the list's name %q; nothing was deleted", confirm, deref(list.Name))
	}
	if err := s.mealie.DeleteShoppingList(ctx, id); err != nil {
		return nil, mealie.ConnectError(err)
	}
	return connect.NewResponse(&mealplanv1.DeleteShoppingListResponse{ListId: id, Name: deref(list.Name), ItemCount: int32(len(list.ListItems))}), nil
}

// listName checks a list name argument.
func listName(arg, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", invalid("%s is required: the shopping list's name", arg)
	}
	if utf8.RuneCountInString(name) > MaxListNameChars {
		return "", invalid("%s is longer than %d characters", arg, MaxListNameChars)
	}
	return name, nil
}
