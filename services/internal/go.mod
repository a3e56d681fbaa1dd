module github.com/souskitchen/sous/services/internal

go 1.26.0

require google.golang.org/protobuf v1.36.12 // indirect

require (
	connectrpc.com/connect v1.21.1
	github.com/agnivade/levenshtein v1.2.2
	github.com/gertd/go-pluralize v0.2.1
	github.com/souskitchen/sous/internal v0.0.0
	github.com/souskitchen/sous/proto v0.0.0
	golang.org/x/sync v0.25.0
	golang.org/x/text v0.44.0
)

replace github.com/souskitchen/sous/internal => ../../internal

replace github.com/souskitchen/sous/proto => ../../proto
