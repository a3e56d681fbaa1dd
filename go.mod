module github.com/souskitchen/sous

go 1.26

require (
	github.com/souskitchen/sous/integration v0.0.0
	github.com/souskitchen/sous/internal v0.0.0
	github.com/souskitchen/sous/mcpfront v0.0.0
	github.com/souskitchen/sous/proto v0.0.0
	github.com/souskitchen/sous/services/internal v0.0.0
	github.com/souskitchen/sous/services/library v0.0.0
	github.com/souskitchen/sous/services/mealplan v0.0.0
	github.com/souskitchen/sous/services/pantry v0.0.0
	github.com/souskitchen/sous/services/recipes v0.0.0
)

replace (
	github.com/souskitchen/sous/integration => ./integration
	github.com/souskitchen/sous/internal => ./internal
	github.com/souskitchen/sous/mcpfront => ./mcpfront
	github.com/souskitchen/sous/proto => ./proto
	github.com/souskitchen/sous/services/internal => ./services/internal
	github.com/souskitchen/sous/services/library => ./services/library
	github.com/souskitchen/sous/services/mealplan => ./services/mealplan
	github.com/souskitchen/sous/services/pantry => ./services/pantry
	github.com/souskitchen/sous/services/recipes => ./services/recipes
)
