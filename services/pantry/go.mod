module github.com/souskitchen/sous/services/pantry

go 1.26.0

require (
	connectrpc.com/connect v1.21.1
	github.com/agnivade/levenshtein v1.2.2
	github.com/souskitchen/sous/internal v0.0.0
	github.com/souskitchen/sous/proto v0.0.0
	github.com/souskitchen/sous/services/internal v0.0.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/gertd/go-pluralize v0.2.1 // indirect
	golang.org/x/text v0.44.0 // indirect
)

replace (
	github.com/souskitchen/sous/internal => ../../internal
	github.com/souskitchen/sous/proto => ../../proto
	github.com/souskitchen/sous/services/internal => ../internal
)
