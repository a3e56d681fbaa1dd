package oauth

import "testing"

func TestPassphraseFile(t *testing.T) {
	h, err := HashPassphrase(testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	p, err := parsePHC(h)
	if err != nil {
		t.Fatal(err)
	}
	if !p.check(testPassphrase) || p.check(testPassphrase+" ") {
		t.Fatal("hash check is wrong")
	}
	if _, err := HashPassphrase("short"); err == nil {
		t.Error("a short passphrase was accepted")
	}
	for _, bad := range []string{"$argon2id$v=19$m=0,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", "$argon2i$v=19$m=1,t=1,p=1$x$y", "$argon2id$v=19$m=65536,t=3,p=4$!!$!!"} {
		if _, err := parsePHC(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
