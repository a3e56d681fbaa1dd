package svcenv

import (
	"strings"
	"testing"
)

// The defaults are the ones docs/configuration.md gives, and a malformed
// boolean is an error naming its variable, for sous and the service
// commands alike.
func TestLoad(t *testing.T) {
	for _, v := range []string{"MEALIE_URL", "MEALIE_API_TOKEN", "MEALIE_VERIFY_SSL", "FOOD_API_BASE", "FOOD_API_TOKEN", "SOUS_CREATE_FOODS", "SOUS_LINKCHECK_ALLOW_PRIVATE"} {
		t.Setenv(v, "")
	}
	m, err := LoadMealie()
	if err != nil || m != (Mealie{VerifySSL: true}) || m.Configured() {
		t.Errorf("LoadMealie() = %+v, %v; want only VerifySSL, not configured", m, err)
	}
	if f := LoadFoodAPI(); f.Configured() {
		t.Errorf("LoadFoodAPI() = %+v, want not configured", f)
	}
	if c, err := CreateFoods(); !c || err != nil {
		t.Errorf("CreateFoods() = %v, %v; want true", c, err)
	}
	if p, err := LinkAllowPrivate(); p || err != nil {
		t.Errorf("LinkAllowPrivate() = %v, %v; want false", p, err)
	}

	t.Setenv("MEALIE_URL", "http://127.0.0.1:9")
	t.Setenv("MEALIE_API_TOKEN", "t")
	t.Setenv("FOOD_API_BASE", "http://127.0.0.1:9/api")
	t.Setenv("FOOD_API_TOKEN", "t")
	if m, _ := LoadMealie(); !m.Configured() {
		t.Errorf("LoadMealie() = %+v, want configured", m)
	}
	if f := LoadFoodAPI(); !f.Configured() {
		t.Errorf("LoadFoodAPI() = %+v, want configured", f)
	}

	for name, read := range map[string]func() error{
		"MEALIE_VERIFY_SSL":            func() error { _, err := LoadMealie(); return err },
		"SOUS_CREATE_FOODS":            func() error { _, err := CreateFoods(); return err },
		"SOUS_LINKCHECK_ALLOW_PRIVATE": func() error { _, err := LinkAllowPrivate(); return err },
	} {
		t.Setenv(name, "perhaps")
		if err := read(); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=perhaps: err = %v, want one naming it", name, err)
		}
	}
}
