package mealie

// inFlight reports whether a singleflight key has a call running; tests use
// it to line concurrent callers up without timing assumptions.
func (c *Client) inFlight(key string) int {
	c.cache.mu.Lock()
	defer c.cache.mu.Unlock()
	return c.cache.flights[key]
}
