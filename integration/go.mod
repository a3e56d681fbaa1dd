module github.com/souskitchen/sous/integration

go 1.26.0

require github.com/souskitchen/sous/internal v0.0.0

require (
	github.com/google/uuid v1.6.0 // indirect
	github.com/mozillazg/go-unidecode v0.2.0 // indirect
)

replace github.com/souskitchen/sous/internal => ../internal

require github.com/souskitchen/sous/services/pantry v0.0.0

replace github.com/souskitchen/sous/services/pantry => ../services/pantry

require github.com/souskitchen/sous/services/mealplan v0.0.0

replace github.com/souskitchen/sous/services/mealplan => ../services/mealplan

require github.com/souskitchen/sous/services/library v0.0.0

replace github.com/souskitchen/sous/services/library => ../services/library
