// Command agent-loop is a small agent loop on memoryd: before each model call
// it preloads the memories relevant to the conversation, prints the context
// block it would send to the model, and stores what the model learned.
//
// The model is scripted and offline, so the example needs nothing but a
// memoryd server:
//
//	go run . [address]     # default localhost:50051
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"

	memoryd "github.com/memoryd/memoryd/clients/go"
	memorydv1 "github.com/memoryd/memoryd/clients/go/gen/memoryd/v1"
)

// fact is something the scripted model learns from a turn, to remember.
type fact struct {
	content    string
	memoryKey  string // a stable key: a later fact with the same key replaces it
	memoryType memorydv1.MemoryType
}

// turn is one scripted exchange: what the user says, what the model answers,
// and what it learns.
type turn struct {
	user   string
	answer string
	learns []fact
}

var script = []turn{
	{
		user:   "Hi! I live in Lisbon, so please give me times in Lisbon time.",
		answer: "Noted: I'll use Lisbon time (WET/WEST) from now on.",
		learns: []fact{{"The user lives in Lisbon and wants times in Lisbon time.", "home-city", memorydv1.MemoryType_MEMORY_TYPE_SEMANTIC}},
	},
	{
		user:   "I'm vegetarian, by the way.",
		answer: "Thanks, I'll only suggest vegetarian places.",
		learns: []fact{{"The user is vegetarian.", "diet", memorydv1.MemoryType_MEMORY_TYPE_DECLARATIVE}},
	},
	{
		user:   "Can you suggest somewhere for dinner near home?",
		answer: "Try a vegetarian restaurant in Lisbon's Príncipe Real; booking for 20:00 Lisbon time?",
	},
	{
		user:   "Big news: I moved to Tokyo last week.",
		answer: "Congratulations! I'll use Tokyo time from now on.",
		learns: []fact{{"The user lives in Tokyo and wants times in Tokyo time.", "home-city", memorydv1.MemoryType_MEMORY_TYPE_SEMANTIC}},
	},
	{
		user:   "What city do I live in, and what should I eat tonight?",
		answer: "You live in Tokyo; how about a vegetarian shojin ryori dinner?",
	},
}

func main() {
	address := "localhost:50051"
	if len(os.Args) > 1 {
		address = os.Args[1]
	}
	if err := run(context.Background(), address); err != nil {
		fmt.Fprintln(os.Stderr, "agent-loop:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, address string) error {
	client, err := memoryd.NewClient(memoryd.Config{
		Address:        address,
		Token:          os.Getenv("MEMORYD_TOKEN"), // empty: no credentials
		DefaultTimeout: 10 * time.Second,
	})
	if err != nil {
		return err
	}
	defer client.Close()

	userScope := &memorydv1.Scope{UserId: "go-example-" + uuid.NewString()[:8], AgentId: "travel-agent"}
	agentScope := &memorydv1.Scope{AgentId: "travel-agent"}
	fmt.Printf("memoryd at %s, user %s\n", address, userScope.GetUserId())

	// Agent memory is written by application code, never by the model. A
	// memory_key keeps it to one memory however often the example runs.
	if _, err := client.CreateMemory(ctx, &memorydv1.CreateMemoryRequest{Memory: &memorydv1.Memory{
		Content:    "When suggesting restaurants, always respect the user's dietary needs.",
		Scope:      agentScope,
		MemoryType: memorydv1.MemoryType_MEMORY_TYPE_PROCEDURAL,
		MemoryKey:  "restaurant-rule",
	}}); err != nil {
		return fmt.Errorf("store the agent's rule: %w", err)
	}

	var conversation []*memorydv1.ConversationTurn
	for i, step := range script {
		conversation = append(conversation, &memorydv1.ConversationTurn{
			Role: memorydv1.TurnRole_TURN_ROLE_USER, Content: step.user,
		})
		fmt.Printf("\n=== turn %d\nuser:  %s\n", i+1, step.user)

		// Before the model call: the memories relevant to the conversation,
		// rendered as a system message. The client makes this read see the
		// facts stored after the previous turns, though they were ASYNC writes.
		block, err := client.PreloadContext(ctx, &memorydv1.PreloadRequest{
			Turns:      conversation,
			UserScope:  userScope,
			AgentScope: agentScope,
			Limit:      3,
		})
		if err != nil {
			return fmt.Errorf("preload before turn %d: %w", i+1, err)
		}
		fmt.Println("--- context block sent to the model ---")
		if block == "" {
			fmt.Println("(no memories yet)")
		} else {
			fmt.Println(strings.TrimRight(block, "\n"))
		}
		fmt.Println("---")

		// The (scripted) model call.
		fmt.Printf("model: %s\n", step.answer)
		conversation = append(conversation, &memorydv1.ConversationTurn{
			Role: memorydv1.TurnRole_TURN_ROLE_ASSISTANT, Content: step.answer,
		})

		// What the model learned goes to long-term memory. ASYNC (the default)
		// answers as soon as the write is journaled.
		for _, learned := range step.learns {
			response, err := client.CreateMemory(ctx, &memorydv1.CreateMemoryRequest{Memory: &memorydv1.Memory{
				Content:    learned.content,
				Scope:      userScope,
				MemoryType: learned.memoryType,
				MemoryKey:  learned.memoryKey,
				Category:   "profile",
			}})
			var e *memoryd.Error
			switch {
			case errors.As(err, &e) && errors.Is(err, memoryd.ErrInvalidArgument):
				return fmt.Errorf("the model learned something memoryd refuses: %v", e.FieldViolations)
			case err != nil:
				return fmt.Errorf("remember %q: %w", learned.content, err)
			}
			fmt.Printf("remembered: %q (%s)\n", learned.content, response.GetOutcome())
		}
	}

	// What memoryd holds for the user now: one memory per key.
	fmt.Println("\n=== the user's memories")
	for memory, err := range client.ListAll(ctx, &memorydv1.ListMemoriesRequest{Scope: userScope}) {
		if err != nil {
			return err
		}
		fmt.Printf("- [%s] %s (version %d)\n", memory.GetMemoryKey(), memory.GetContent(), memory.GetVersion())
	}
	return nil
}
