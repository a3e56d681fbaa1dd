package mealieemu

// ServeImageAt makes POST /api/recipes/{slug}/image {url} fetch data from
// url, since the emulator fetches nothing from the network; the image then
// answers at GET /api/media/recipes/{id}/images/original.webp. Any other URL
// fetches nothing, as a page Mealie cannot reach: Mealie still answers 200
// null and changes the recipe's image key, but serves no image (seen on 2.0:
// the media route answers 404 after such a fetch).
func (s *Server) ServeImageAt(url string, data []byte) {
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.fetchable == nil {
		st.fetchable = map[string][]byte{}
	}
	st.fetchable[url] = data
}
