package mealieemu

// FailParser makes POST /api/parser/ingredients and /ingredient answer a
// bare 500 "Internal Server Error" for the named parser ("nlp" or "brute"),
// as Mealie 2.0 does for nlp where its CRF++ model is missing (seen on a
// 2.0 install run from source; its Docker build downloads the model, so
// installs without it meet the same). Until the server closes.
func (s *Server) FailParser(parser string) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.failParsers == nil {
		st.failParsers = map[string]bool{}
	}
	st.failParsers[parser] = true
}

func (st *store) parserFails(parser string) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.failParsers[parser]
}
