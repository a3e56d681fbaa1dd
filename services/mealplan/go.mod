module github.com/souskitchen/sous/services/mealplan

go 1.26
