module github.com/souskitchen/sous/services/library

go 1.26
