module github.com/souskitchen/sous/services/library

go 1.26.0

require (
	connectrpc.com/connect v1.21.1
	github.com/agnivade/levenshtein v1.2.2
	github.com/souskitchen/sous/internal v0.0.0
	github.com/souskitchen/sous/proto v0.0.0
	github.com/souskitchen/sous/services/internal v0.0.0
	golang.org/x/text v0.44.0
)

require (
	github.com/gertd/go-pluralize v0.2.1 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/mozillazg/go-unidecode v0.2.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

replace (
	github.com/souskitchen/sous/internal => ../../internal
	github.com/souskitchen/sous/proto => ../../proto
	github.com/souskitchen/sous/services/internal => ../internal
)
