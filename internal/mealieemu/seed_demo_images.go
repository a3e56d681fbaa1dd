package mealieemu

import (
	"bytes"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"math"
)

// The demo's recipe images: `sous demo` shows its library in the MCP Apps
// views (docs/clients.md), where a recipe without an image is a grey box.
// No photograph ships with sous, so each demo recipe gets a drawn one, made
// here at start-up: a plate on a tinted table, the food on it in the
// recipe's colours, the same for a slug every time. Only the "demo" seed
// has them; every other seed keeps the image-less recipes tests expect.

// demoImageW and demoImageH are the drawn image's size: the views show it at most 220
// pixels wide.
const demoImageW, demoImageH = 480, 360

// demoPalettes are the food colours of a recipe's first category.
var demoPalettes = map[string][]color.NRGBA{
	"Dinner":    {{178, 62, 38, 255}, {120, 70, 40, 255}, {214, 140, 60, 255}, {88, 130, 60, 255}},
	"Breakfast": {{232, 186, 90, 255}, {245, 222, 160, 255}, {180, 120, 60, 255}, {200, 60, 70, 255}},
	"Soup":      {{214, 90, 50, 255}, {236, 150, 80, 255}, {96, 140, 70, 255}, {250, 235, 210, 255}},
	"Lunch":     {{110, 160, 80, 255}, {220, 70, 60, 255}, {245, 230, 200, 255}, {60, 60, 60, 255}},
	"Baking":    {{170, 110, 60, 255}, {210, 160, 100, 255}, {110, 70, 40, 255}, {245, 225, 190, 255}},
	"Snack":     {{200, 150, 70, 255}, {140, 90, 50, 255}, {240, 210, 140, 255}, {90, 140, 70, 255}},
	"Side":      {{96, 150, 70, 255}, {230, 200, 90, 255}, {200, 80, 60, 255}, {240, 240, 230, 255}},
	"Dessert":   {{200, 80, 110, 255}, {245, 220, 225, 255}, {120, 60, 40, 255}, {250, 240, 230, 255}},
}

// seedDemoImages gives every recipe an image, as if uploaded: the image key
// Mealie's payload carries now, and the bytes its media route serves drawn
// on the first request, since drawing two dozen takes seconds under the
// race detector and start-up should not wait for a view nobody opened.
func (s *store) seedDemoImages() {
	if s.drawLater == nil {
		s.drawLater = map[string]func() []byte{}
	}
	for _, r := range s.recipes {
		var category string
		if len(r.CategoryIDs) > 0 {
			for _, c := range s.categories {
				if c.ID == r.CategoryIDs[0] {
					category = c.Name
				}
			}
		}
		slug := r.Slug
		s.drawLater[r.ID] = func() []byte { return drawDish(slug, category) }
		r.Image = strp("demo")
	}
}

// drawDish draws a plate of food for slug, coloured for category.
func drawDish(slug, category string) []byte {
	h := fnv.New64a()
	_, _ = h.Write([]byte(slug))
	seed := h.Sum64()
	next := func() float64 {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return float64(seed%10000) / 10000
	}
	palette, ok := demoPalettes[category]
	if !ok {
		palette = demoPalettes["Dinner"]
	}
	table := color.NRGBA{uint8(200 + 40*next()), uint8(190 + 40*next()), uint8(170 + 40*next()), 255}
	img := image.NewNRGBA(image.Rect(0, 0, demoImageW, demoImageH))
	cx, cy := float64(demoImageW)/2, float64(demoImageH)/2+6
	type blob struct {
		x, y, r float64
		c       color.NRGBA
	}
	var blobs []blob
	for i := range 9 {
		a, d := next()*2*math.Pi, next()*78
		blobs = append(blobs, blob{cx + d*math.Cos(a), cy + d*math.Sin(a)*0.8, 26 + next()*34, palette[i%len(palette)]})
	}
	for y := range demoImageH {
		for x := range demoImageW {
			fx, fy := float64(x), float64(y)
			// The table: a soft vertical shade of its colour.
			shade := 1 - 0.18*fy/demoImageH
			c := color.NRGBA{uint8(float64(table.R) * shade), uint8(float64(table.G) * shade), uint8(float64(table.B) * shade), 255}
			d := math.Hypot(fx-cx, (fy-cy)/0.82)
			shadow := math.Hypot(fx-cx-4, (fy-cy-9)/0.82)
			switch {
			case d >= 142 && shadow < 143:
				c = color.NRGBA{uint8(float64(c.R) * 0.8), uint8(float64(c.G) * 0.8), uint8(float64(c.B) * 0.8), 255} // the plate's shadow
			case d < 142:
				c = color.NRGBA{250, 249, 246, 255} // the plate
				if d > 118 {
					c = color.NRGBA{236, 233, 228, 255} // its rim
				}
				for _, b := range blobs {
					if math.Hypot(fx-b.x, (fy-b.y)/0.85) < b.r && d < 116 {
						k := 1 - 0.25*math.Hypot(fx-b.x, fy-b.y)/b.r
						c = color.NRGBA{uint8(float64(b.c.R) * k), uint8(float64(b.c.G) * k), uint8(float64(b.c.B) * k), 255}
					}
				}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}
