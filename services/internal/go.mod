module github.com/souskitchen/sous/services/internal

go 1.26.0

require google.golang.org/protobuf v1.36.11 // indirect

require (
	connectrpc.com/connect v1.21.1
	golang.org/x/sync v0.25.0
)

replace github.com/souskitchen/sous/internal => ../../internal
