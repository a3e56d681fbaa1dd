package mcpfront

// Fake Connect services, built from a service's descriptor rather than
// written out a method at a time: every method records its request and
// answers the canned response (or error) a test set for it, or an empty
// response, so tool tests do not depend on the services. The handlers are
// Connect's own, on dynamic messages (connect.WithRequestInitializer is the
// library's hook for that); requests are recorded, and canned answers
// given, as the generated Go types.

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// recorder holds what a fake service was asked and what it answers.
type recorder struct {
	mu       sync.Mutex
	requests map[string][]proto.Message
	replies  map[string]proto.Message
	errs     map[string]error
	// streams holds, per streaming method, the messages to send in order.
	streams map[string][]proto.Message
}

func newRecorder() *recorder {
	return &recorder{requests: map[string][]proto.Message{}, replies: map[string]proto.Message{}, errs: map[string]error{}, streams: map[string][]proto.Message{}}
}

func (r *recorder) record(method string, req proto.Message) (proto.Message, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests[method] = append(r.requests[method], proto.Clone(req))
	if err := r.errs[method]; err != nil {
		return nil, err
	}
	return r.replies[method], nil
}

// last returns the last request method received, or nil.
func (r *recorder) last(method string) proto.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	reqs := r.requests[method]
	if len(reqs) == 0 {
		return nil
	}
	return reqs[len(reqs)-1]
}

func (r *recorder) calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, reqs := range r.requests {
		n += len(reqs)
	}
	return n
}

// mount serves every method of the named service on mux, answered from r.
func (r *recorder) mount(t *testing.T, mux *http.ServeMux, service string) {
	t.Helper()
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(service))
	if err != nil {
		t.Fatal(err)
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		t.Fatalf("%s is a %T, not a service", service, d)
	}
	methods := sd.Methods()
	for i := range methods.Len() {
		md := methods.Get(i)
		procedure := "/" + string(sd.FullName()) + "/" + string(md.Name())
		opts := []connect.HandlerOption{
			connect.WithSchema(md),
			connect.WithRequestInitializer(func(_ connect.Spec, msg any) error {
				*msg.(*dynamicpb.Message) = *dynamicpb.NewMessage(md.Input())
				return nil
			}),
		}
		if md.IsStreamingServer() {
			mux.Handle(procedure, connect.NewServerStreamHandler(procedure, func(_ context.Context, req *connect.Request[dynamicpb.Message], stream *connect.ServerStream[dynamicpb.Message]) error {
				return r.send(md, req.Msg, stream)
			}, opts...))
			continue
		}
		mux.Handle(procedure, connect.NewUnaryHandler(procedure, func(_ context.Context, req *connect.Request[dynamicpb.Message]) (*connect.Response[dynamicpb.Message], error) {
			res, err := r.reply(md, req.Msg)
			if err != nil {
				return nil, err
			}
			return connect.NewResponse(res), nil
		}, opts...))
	}
}

// reply records a unary call and answers the canned response, or an empty
// one.
func (r *recorder) reply(md protoreflect.MethodDescriptor, req *dynamicpb.Message) (*dynamicpb.Message, error) {
	m, err := r.take(md, req)
	if err != nil {
		return nil, err
	}
	return convert(m, md.Output())
}

// send records a streaming call and answers the canned messages in order.
func (r *recorder) send(md protoreflect.MethodDescriptor, req *dynamicpb.Message, stream *connect.ServerStream[dynamicpb.Message]) error {
	if _, err := r.take(md, req); err != nil {
		return err
	}
	r.mu.Lock()
	msgs := r.streams[string(md.Name())]
	r.mu.Unlock()
	for _, m := range msgs {
		out, err := convert(m, md.Output())
		if err != nil {
			return err
		}
		if err := stream.Send(out); err != nil {
			return err
		}
	}
	return nil
}

// take records req as its generated type and returns the canned reply.
func (r *recorder) take(md protoreflect.MethodDescriptor, req *dynamicpb.Message) (proto.Message, error) {
	mt, err := protoregistry.GlobalTypes.FindMessageByName(md.Input().FullName())
	if err != nil {
		return nil, err
	}
	in := mt.New().Interface()
	if err := remarshal(req, in); err != nil {
		return nil, err
	}
	return r.record(string(md.Name()), in)
}

// convert turns a canned message (nil for none) into a dynamic one of the
// output type, refusing a canned message of another type.
func convert(m proto.Message, out protoreflect.MessageDescriptor) (*dynamicpb.Message, error) {
	res := dynamicpb.NewMessage(out)
	if m == nil {
		return res, nil
	}
	if got := m.ProtoReflect().Descriptor().FullName(); got != out.FullName() {
		return nil, fmt.Errorf("fake: canned reply is %s, want %s", got, out.FullName())
	}
	return res, remarshal(m, res)
}

// remarshal copies src into dst through the wire form.
func remarshal(src, dst proto.Message) error {
	b, err := proto.Marshal(src)
	if err != nil {
		return err
	}
	return proto.Unmarshal(b, dst)
}
