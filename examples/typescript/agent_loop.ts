/**
 * An agent loop on memoryd: before each model call, preload the memory relevant
 * to the conversation and put the context block in the prompt; after it, store
 * what the model learned about the user. The model is scripted and offline, so
 * this runs anywhere a memoryd server does:
 *
 *     node dist/agent_loop.js [host:port]      (default localhost:50051)
 *
 * Each run uses fresh ids (so runs never see each other's memories) and forgets
 * them at the end. Exits 1 if the last turn's context lacks what earlier turns
 * taught, 2 if memoryd cannot be reached.
 */
import { randomUUID } from "node:crypto";
import {
  ConversationTurnSchema,
  MemorydError,
  MemoryType,
  TurnRole,
  createMemorydClient,
  type MemorydClient,
  type RequestInit,
} from "@memoryd/client";

type Turn = RequestInit<typeof ConversationTurnSchema>;

/** What the scripted model "learns" from a turn: facts to remember, by key. */
interface Lesson {
  key: string;
  content: string;
}

/** One scripted exchange: what the user says, and what the model replies and learns. */
interface ScriptedTurn {
  user: string;
  reply: (context: string) => string;
  learns: Lesson[];
}

const SCRIPT: ScriptedTurn[] = [
  {
    user: "Hi! I live in New York (UTC-5) and I like short answers.",
    reply: () => "Noted: UTC-5, and I'll keep it short.",
    learns: [
      { key: "timezone", content: "The user's timezone is UTC-5 (New York)." },
      { key: "answer-style", content: "The user prefers short answers." },
    ],
  },
  {
    user: "My laptop runs Ubuntu 24.04 and the Wi-Fi keeps dropping.",
    reply: (context) =>
      context.includes("NetworkManager")
        ? "Try restarting NetworkManager: sudo systemctl restart NetworkManager."
        : "Have you tried turning it off and on again?",
    learns: [{ key: "laptop-os", content: "The user's laptop runs Ubuntu 24.04." }],
  },
  {
    user: "Remind me: which timezone am I in, and what does my laptop run?",
    reply: (context) =>
      context.includes("UTC-5") && context.includes("Ubuntu")
        ? "You're on UTC-5, and your laptop runs Ubuntu 24.04."
        : "I don't know yet.",
    learns: [],
  },
];

async function run(client: MemorydClient): Promise<boolean> {
  const run = randomUUID().slice(0, 8);
  const userScope = { userId: `demo-user-${run}` };
  const agentScope = { agentId: `support-bot-${run}` };

  // Shared agent memory is written by the application, never by the model.
  await client.createMemory({
    memory: {
      content: "Restarting NetworkManager fixes Wi-Fi drops on Ubuntu laptops.",
      scope: agentScope,
      memoryType: MemoryType.PROCEDURAL,
      memoryKey: "wifi-drop-fix",
    },
  });

  const history: Turn[] = [];
  let lastContext = "";
  for (const [index, turn] of SCRIPT.entries()) {
    history.push({ role: TurnRole.USER, content: turn.user });
    // Preload before the model call. Writes of earlier turns are ASYNC, and still
    // read here: the client waits for its own writes into the scope.
    const context = await client.preloadContext({ turns: history, userScope, agentScope });
    lastContext = context;
    console.log(`--- turn ${index + 1}`);
    console.log(`user: ${turn.user}`);
    console.log(`context block sent to the model:\n${context || "(no memories yet)"}`);
    const reply = turn.reply(context);
    console.log(`assistant: ${reply}`);
    history.push({ role: TurnRole.ASSISTANT, content: reply });
    for (const lesson of turn.learns) {
      const written = await client.createMemory({
        memory: { content: lesson.content, scope: userScope, memoryKey: lesson.key, memoryType: MemoryType.SEMANTIC },
      });
      console.log(`remembered (${lesson.key}): ${lesson.content} [write ${written.writeToken}]`);
    }
  }

  const forgotten = await client.forgetMemories({ scope: userScope });
  await client.forgetMemories({ scope: agentScope });
  await client.waitForWrite(forgotten.writeToken);
  console.log("--- done; this run's memories are forgotten");
  return lastContext.includes("UTC-5") && lastContext.includes("Ubuntu 24.04");
}

async function main(): Promise<number> {
  const address = process.argv[2] ?? "localhost:50051";
  const client = createMemorydClient({ address, token: process.env["MEMORYD_TOKEN"], timeoutMs: 10_000 });
  try {
    if (await run(client)) {
      return 0;
    }
    console.error("the last turn's context lacks what the earlier turns taught");
    return 1;
  } catch (error) {
    if (error instanceof MemorydError) {
      const reason = error.reason ? ` (${error.reason})` : "";
      console.error(`memoryd at ${address} failed: ${error.name} ${error.code}${reason}: ${error.message}`);
      return 2;
    }
    throw error;
  } finally {
    client.close();
  }
}

process.exitCode = await main();
