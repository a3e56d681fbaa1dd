module github.com/souskitchen/sous/internal

go 1.26.0

require (
	connectrpc.com/connect v1.21.1
	connectrpc.com/grpchealth v1.5.0
	connectrpc.com/grpcreflect v1.3.1
	github.com/joho/godotenv v1.5.1
)

require (
	github.com/mozillazg/go-unidecode v0.2.0
	golang.org/x/text v0.44.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/google/uuid v1.6.0
	github.com/souskitchen/sous/proto v0.0.0
)

replace github.com/souskitchen/sous/proto => ../proto
