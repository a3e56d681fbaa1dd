package oauth

import "testing"

func TestNewRefusesBadConfig(t *testing.T) {
	e := newEnv(t, "")
	for _, tc := range []struct {
		name string
		edit func(*Config)
	}{
		{"http issuer off loopback", func(c *Config) { c.Issuer = "http://kitchen.example.org" }},
		{"no passphrase file", func(c *Config) { c.PassphraseFile = "" }},
		{"missing passphrase file", func(c *Config) { c.PassphraseFile = c.StatePath + ".missing" }},
		{"no state path", func(c *Config) { c.StatePath = "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := e.cfg
			tc.edit(&cfg)
			if s, err := New(cfg); err == nil {
				s.Close()
				t.Fatal("accepted")
			}
		})
	}
}
