// Package memoryd is the Go client of memoryd, long-term memory for AI agents
// over gRPC (service memoryd.v1.MemoryService).
//
// The messages are the generated ones, in package
// github.com/memoryd/memoryd/clients/go/gen/memoryd/v1 (imported as
// memorydv1). This package adds only what the stubs lack: a validated Config
// with documented defaults, a deadline on every call, request ids on writes,
// retries on UNAVAILABLE, read-your-writes across the calls of one Client,
// typed errors (*Error and the Err* sentinels), W3C trace context through
// OpenTelemetry, a paging iterator (ListAll), the Preload and WatchMemories
// streams as iterators (Preload, PreloadContext, Watch) and filter
// constructors (Eq, All, ...).
//
//	client, err := memoryd.NewClient(memoryd.Config{Address: "localhost:50051"})
//	if err != nil { return err }
//	defer client.Close()
//	_, err = client.CreateMemory(ctx, &memorydv1.CreateMemoryRequest{Memory: &memorydv1.Memory{
//		Content: "I'm in UTC-5", Scope: &memorydv1.Scope{UserId: "u1"}, MemoryKey: "timezone",
//	}})
//	hits, err := client.SearchMemories(ctx, &memorydv1.SearchMemoriesRequest{
//		Query: "What timezone is the user in?", Scope: &memorydv1.Scope{UserId: "u1"},
//	})
//	if errors.Is(err, memoryd.ErrScopeNotPermitted) { ... }
package memoryd
