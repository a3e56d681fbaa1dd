module github.com/souskitchen/sous/services/pantry

go 1.26
