package names

import "testing"

// TestIsHeading holds the rule for the lines an imported, never parsed
// recipe carries as its sections' headings, both ways: a heading is not
// bought, an ingredient written in capitals or named like a part of the
// dish is.
func TestIsHeading(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		// headings as recipe sites write them
		{"FOR THE MARINADE", true},
		{"FOR THE SAUCE", true},
		{"TO SERVE", true},
		{"For the sauce:", true},
		{"For the dressing", true},
		{"To garnish (optional)", true},
		{"For serving", true},
		{"Garnish:", true},
		{"Cake:", true},
		{"Chocolate ganache:", true},
		{"SAUCE", true},
		{"Marinade", true},
		{"Topping ingredients", true},
		{"  FOR THE CRUST  ", true},
		// ingredients, in capitals or not
		{"SALT", false},
		{"SOY SAUCE", false},
		{"KOSHER SALT", false},
		{"Salt and pepper", false},
		{"salt", false},
		{"soy sauce", false},
		{"stock", false},
		{"Pastry", false},
		{"tomatoes", false},
		{"tofu", false},
		{"fresh coriander, to serve", false},
		{"lime wedges, for serving", false},
		{"Oil for frying", false},
		// an amount makes a line something to buy
		{"2 FOR THE SAUCE", false},
		{"Serves 4:", false},
		{"", false},
		{" : ", false},
	} {
		if got := IsHeading(c.line); got != c.want {
			t.Errorf("IsHeading(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
