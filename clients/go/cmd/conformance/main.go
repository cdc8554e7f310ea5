// Command conformance is the Go runner of the client conformance suite
// (tests/clients/scenario_suite/PROTOCOL.md): it reads JSON lines on stdin,
// turns each step into one call of a memoryd.Client, and answers each with one
// JSON line on stdout, in order. Logs go to stderr. It exits 0 at end of input.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	memoryd "github.com/memoryd/memoryd/clients/go"
	memorydv1 "github.com/memoryd/memoryd/clients/go/gen/memoryd/v1"
)

// message is one request line.
type message struct {
	ID        json.RawMessage `json:"id"`
	Op        string          `json:"op"`
	Target    string          `json:"target"`
	Token     *string         `json:"token"`
	TimeoutMS *int64          `json:"timeout_ms"`
	RPC       string          `json:"rpc"`
	Request   json.RawMessage `json:"request"`
	TLS       *tlsMaterial    `json:"tls"`
}

// tlsMaterial is a connect's "tls": the PEM of the one CA to trust and, for
// mutual TLS, of the client's certificate and key.
type tlsMaterial struct {
	CA   string `json:"ca"`
	Cert string `json:"cert"`
	Key  string `json:"key"`
}

// answer is one answer line; the fields not set are left out.
type answer struct {
	ID       json.RawMessage    `json:"id"`
	OK       bool               `json:"ok,omitempty"`
	Response json.RawMessage    `json:"response,omitempty"`
	Events   *[]json.RawMessage `json:"events,omitempty"` // present, maybe empty, for Preload
	Error    *errorAnswer       `json:"error,omitempty"`
	Fault    string             `json:"fault,omitempty"`
}

type errorAnswer struct {
	Code            string           `json:"code"`
	Reason          string           `json:"reason"`
	Message         string           `json:"message"`
	FieldViolations []fieldViolation `json:"field_violations"`
}

type fieldViolation struct {
	Field       string `json:"field"`
	Description string `json:"description"`
}

var (
	parser  = protojson.UnmarshalOptions{}
	printer = protojson.MarshalOptions{UseProtoNames: true}
)

type runner struct {
	client *memoryd.Client
}

func (r *runner) connect(m message) error {
	r.close()
	config := memoryd.Config{Address: m.Target}
	if m.Token != nil {
		config.Token = *m.Token
	}
	if m.TimeoutMS != nil {
		config.DefaultTimeout = time.Duration(*m.TimeoutMS) * time.Millisecond
	}
	if m.TLS != nil {
		if m.TLS.CA == "" {
			// An empty CA would mean the system roots, not "trust only this CA".
			return errors.New(`connect: "tls" has no "ca"`)
		}
		config.TLS = &memoryd.TLSConfig{
			CACert:     []byte(m.TLS.CA),
			ClientCert: []byte(m.TLS.Cert),
			ClientKey:  []byte(m.TLS.Key),
		}
	}
	client, err := memoryd.NewClient(config)
	if err != nil {
		return err
	}
	r.client = client
	return nil
}

func (r *runner) close() {
	if r.client != nil {
		if err := r.client.Close(); err != nil {
			log.Printf("close: %v", err)
		}
		r.client = nil
	}
}

// unary runs one unary call: parse the request, call, print the response.
func unary[Req proto.Message, Resp proto.Message](ctx context.Context, raw json.RawMessage, req Req,
	method func(context.Context, Req) (Resp, error)) (answer, error) {
	if err := parseRequest(raw, req); err != nil {
		return answer{}, err
	}
	response, err := method(ctx, req)
	if err != nil {
		return errorOf(err)
	}
	return responseOf(response)
}

func (r *runner) call(m message) (answer, error) {
	c := r.client
	if c == nil {
		return answer{}, errors.New("call before connect")
	}
	ctx := context.Background()
	if m.TimeoutMS != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(*m.TimeoutMS)*time.Millisecond)
		defer cancel()
	}
	switch m.RPC {
	case "CreateMemory":
		return unary(ctx, m.Request, &memorydv1.CreateMemoryRequest{}, c.CreateMemory)
	case "BatchCreateMemories":
		return unary(ctx, m.Request, &memorydv1.BatchCreateMemoriesRequest{}, c.BatchCreateMemories)
	case "GetMemory":
		return unary(ctx, m.Request, &memorydv1.GetMemoryRequest{}, c.GetMemory)
	case "ListMemories":
		return unary(ctx, m.Request, &memorydv1.ListMemoriesRequest{}, c.ListMemories)
	case "UpdateMemory":
		return unary(ctx, m.Request, &memorydv1.UpdateMemoryRequest{}, c.UpdateMemory)
	case "DeleteMemory":
		return unary(ctx, m.Request, &memorydv1.DeleteMemoryRequest{}, c.DeleteMemory)
	case "SearchMemories":
		return unary(ctx, m.Request, &memorydv1.SearchMemoriesRequest{}, c.SearchMemories)
	case "ForgetMemories":
		return unary(ctx, m.Request, &memorydv1.ForgetMemoriesRequest{}, c.ForgetMemories)
	case "GetWriteStatus":
		return unary(ctx, m.Request, &memorydv1.GetWriteStatusRequest{}, c.GetWriteStatus)
	case "ListAllMemories":
		req := &memorydv1.ListMemoriesRequest{}
		if err := parseRequest(m.Request, req); err != nil {
			return answer{}, err
		}
		all := &memorydv1.ListMemoriesResponse{}
		for memory, err := range c.ListAll(ctx, req) {
			if err != nil {
				return errorOf(err)
			}
			all.Memories = append(all.Memories, memory)
		}
		return responseOf(all)
	case "Preload":
		req := &memorydv1.PreloadRequest{}
		if err := parseRequest(m.Request, req); err != nil {
			return answer{}, err
		}
		events := []json.RawMessage{}
		for event, err := range c.Preload(ctx, req) {
			if err != nil {
				failed, faultErr := errorOf(err)
				failed.Events = &events
				return failed, faultErr
			}
			printed, err := printer.Marshal(event)
			if err != nil {
				return answer{}, err
			}
			events = append(events, printed)
		}
		return answer{Events: &events}, nil
	case "PreloadContext":
		req := &memorydv1.PreloadRequest{}
		if err := parseRequest(m.Request, req); err != nil {
			return answer{}, err
		}
		text, err := c.PreloadContext(ctx, req)
		if err != nil {
			return errorOf(err)
		}
		printed, err := json.Marshal(map[string]string{"text": text})
		return answer{Response: printed}, err
	}
	return answer{}, fmt.Errorf("unknown rpc %q", m.RPC)
}

func parseRequest(raw json.RawMessage, req proto.Message) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := parser.Unmarshal(raw, req); err != nil {
		return fmt.Errorf("cannot parse the request: %w", err)
	}
	return nil
}

func responseOf(response proto.Message) (answer, error) {
	printed, err := printer.Marshal(response)
	if err != nil {
		return answer{}, err
	}
	return answer{Response: printed}, nil
}

// errorOf is the error answer of a failed call, read from the client's typed
// error; anything else is a fault of the runner.
func errorOf(err error) (answer, error) {
	var e *memoryd.Error
	if !errors.As(err, &e) {
		return answer{}, fmt.Errorf("the client returned an untyped error: %w", err)
	}
	violations := []fieldViolation{}
	for _, v := range e.FieldViolations {
		violations = append(violations, fieldViolation{v.Field, v.Description})
	}
	return answer{Error: &errorAnswer{
		Code:            memoryd.CodeName(e.Code),
		Reason:          e.Reason,
		Message:         e.Message,
		FieldViolations: violations,
	}}, nil
}

func (r *runner) handle(m message) answer {
	var (
		a   answer
		err error
	)
	switch m.Op {
	case "connect":
		err = r.connect(m)
		a.OK = err == nil
	case "call":
		a, err = r.call(m)
	case "close":
		r.close()
		a.OK = true
	default:
		err = fmt.Errorf("unknown op %q", m.Op)
	}
	if err != nil {
		a = answer{Fault: err.Error()}
	}
	a.ID = m.ID
	return a
}

func main() {
	log.SetOutput(os.Stderr)
	log.SetPrefix("conformance: ")
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	r := &runner{}
	defer r.close()
	for {
		line, readErr := in.ReadBytes('\n')
		if a, ok := handleLine(r, line); ok {
			encoded, err := json.Marshal(a)
			if err != nil {
				encoded, _ = json.Marshal(answer{ID: a.ID, Fault: err.Error()})
			}
			out.Write(append(encoded, '\n'))
			if err := out.Flush(); err != nil {
				log.Fatalf("stdout: %v", err)
			}
		}
		if readErr == io.EOF {
			return
		}
		if readErr != nil {
			log.Fatalf("stdin: %v", readErr)
		}
	}
}

// handleLine answers one line; ok is false for a blank line.
func handleLine(r *runner, line []byte) (answer, bool) {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return answer{}, false
	}
	var m message
	if err := json.Unmarshal(trimmed, &m); err != nil {
		return answer{Fault: fmt.Sprintf("cannot parse the line: %v", err)}, true
	}
	return r.handle(m), true
}
