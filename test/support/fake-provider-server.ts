// Small HTTP servers on loopback that answer like the model providers do, recording every request they get.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the server got, its body parsed. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly raw: string;
  // biome-ignore lint/suspicious/noExplicitAny: wire bodies are read field by field in tests
  readonly body: any;
}

/** One server-sent event; string data goes out as it is (so a test can send text that is not JSON). */
export interface FakeEvent {
  readonly event?: string;
  readonly data: unknown;
}

/**
 * How the server answers one request: a JSON body, a body of any text (to send what is not JSON), server-sent
 * events (with `hang`, the stream stays open after them), or never (to test aborts). `headers` are added to the reply.
 */
export type FakeReply =
  | { readonly status?: number; readonly json: unknown; readonly headers?: Readonly<Record<string, string>> }
  | { readonly status?: number; readonly text: string; readonly headers?: Readonly<Record<string, string>> }
  | { readonly sse: readonly FakeEvent[]; readonly hang?: boolean }
  | { readonly hang: true };

/** A running fake provider. Replies are taken in order per path; an unexpected request gets a 500. */
export interface FakeProviderServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Resolves when the server has received `count` requests in all. */
  received(count: number): Promise<void>;
  /** Resolves when the client has closed `count` replies the server kept open (`hang`) in all. */
  hungUp(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a fake provider on 127.0.0.1 on a free port, answering each path from its queue of replies. */
export async function startFakeProvider(replies: Record<string, FakeReply[]>): Promise<FakeProviderServer> {
  const queues = new Map(Object.entries(replies).map(([path, list]) => [path, [...list]]));
  const requests: RecordedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const open = new Set<ServerResponse>();
  let hangups = 0;
  const hangupWaiters: { count: number; resolve: () => void }[] = [];
  const keepOpen = (response: ServerResponse) => {
    open.add(response);
    response.on("close", () => {
      open.delete(response);
      hangups++;
      for (const waiter of hangupWaiters.filter((entry) => hangups >= entry.count)) waiter.resolve();
    });
  };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const path = (request.url ?? "").split("?")[0] ?? "";
    requests.push({
      method: request.method ?? "",
      path,
      headers: request.headers,
      raw,
      body: raw === "" ? undefined : JSON.parse(raw),
    });
    for (const waiter of waiters.filter((entry) => requests.length >= entry.count)) waiter.resolve();
    const reply = queues.get(path)?.shift();
    if (reply === undefined) {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ error: { type: "api_error", message: `fake server: no reply queued for ${path}` } }),
      );
    } else if ("sse" in reply) {
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const event of reply.sse) {
        response.write(
          `${event.event === undefined ? "" : `event: ${event.event}\n`}data: ${typeof event.data === "string" ? event.data : JSON.stringify(event.data)}\n\n`,
        );
      }
      if (reply.hang === true) keepOpen(response);
      else response.end();
    } else if ("hang" in reply) {
      keepOpen(response);
    } else {
      response.writeHead(reply.status ?? 200, {
        "content-type": "application/json",
        "request-id": "req_fake",
        ...reply.headers,
      });
      response.end("text" in reply ? reply.text : JSON.stringify(reply.json));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    received: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    hungUp: (count) =>
      hangups >= count ? Promise.resolve() : new Promise((resolve) => hangupWaiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of open) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An Anthropic message as the server-sent events `messages.stream` reads, text split in two deltas. */
// biome-ignore lint/suspicious/noExplicitAny: wire shapes
export function anthropicMessageEvents(message: any): { event: string; data: unknown }[] {
  const events: { event: string; data: unknown }[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
      },
    },
  ];
  // biome-ignore lint/suspicious/noExplicitAny: wire shapes
  message.content.forEach((block: any, index: number) => {
    if (block.type === "text") {
      const half = Math.ceil(block.text.length / 2);
      events.push({
        event: "content_block_start",
        data: { type: "content_block_start", index, content_block: { type: "text", text: "" } },
      });
      for (const text of [block.text.slice(0, half), block.text.slice(half)]) {
        events.push({
          event: "content_block_delta",
          data: { type: "content_block_delta", index, delta: { type: "text_delta", text } },
        });
      }
    } else {
      events.push({
        event: "content_block_start",
        data: { type: "content_block_start", index, content_block: { ...block, input: {} } },
      });
      events.push({
        event: "content_block_delta",
        data: {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
        },
      });
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  events.push({
    event: "message_delta",
    data: {
      type: "message_delta",
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: message.usage.output_tokens },
    },
  });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return events;
}

/** A chat completion as the chunks a streaming Chat Completions server sends, text and arguments in two pieces each. */
// biome-ignore lint/suspicious/noExplicitAny: wire shapes
export function chatCompletionChunks(completion: any): { data: unknown }[] {
  const { id, created, model } = completion;
  const choice = completion.choices[0];
  // biome-ignore lint/suspicious/noExplicitAny: wire shapes
  const chunk = (delta: any, finish_reason: string | null = null) => ({
    data: {
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [{ index: 0, delta, finish_reason, logprobs: null }],
    },
  });
  const halves = (text: string) => [text.slice(0, Math.ceil(text.length / 2)), text.slice(Math.ceil(text.length / 2))];
  const chunks = [chunk({ role: "assistant", content: "" })];
  if (typeof choice.message.content === "string") {
    for (const content of halves(choice.message.content)) chunks.push(chunk({ content }));
  }
  // biome-ignore lint/suspicious/noExplicitAny: wire shapes
  (choice.message.tool_calls ?? []).forEach((call: any, index: number) => {
    chunks.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }],
      }),
    );
    for (const part of halves(call.function.arguments)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
    }
  });
  chunks.push(chunk({}, choice.finish_reason));
  const usage = { data: { id, object: "chat.completion.chunk", created, model, choices: [], usage: completion.usage } };
  return [...chunks, usage, { data: "[DONE]" }];
}

/** Halves of a text, the way the stream helpers here split it. */
function halves(text: string): [string, string] {
  const half = Math.ceil(text.length / 2);
  return [text.slice(0, half), text.slice(half)];
}

/**
 * A Responses API body as the events a streaming Responses server sends (`response.created`, each output item
 * added, its text or arguments in two deltas, done, then `response.completed` with the whole body).
 */
// biome-ignore lint/suspicious/noExplicitAny: wire shapes
export function responsesEvents(response: any): { event: string; data: unknown }[] {
  let sequence = 0;
  const events: { event: string; data: unknown }[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: wire shapes
  const push = (data: any) => events.push({ event: data.type, data: { ...data, sequence_number: sequence++ } });
  push({ type: "response.created", response: { ...response, status: "in_progress", output: [], usage: null } });
  // biome-ignore lint/suspicious/noExplicitAny: wire shapes
  response.output.forEach((item: any, output_index: number) => {
    if (item.type === "message") {
      push({ type: "response.output_item.added", output_index, item: { ...item, status: "in_progress", content: [] } });
      // biome-ignore lint/suspicious/noExplicitAny: wire shapes
      item.content.forEach((part: any, content_index: number) => {
        const base = { item_id: item.id, output_index, content_index };
        push({ type: "response.content_part.added", ...base, part: { ...part, text: "" } });
        for (const delta of halves(part.text ?? "")) push({ type: "response.output_text.delta", ...base, delta });
        push({ type: "response.output_text.done", ...base, text: part.text });
        push({ type: "response.content_part.done", ...base, part });
      });
    } else if (item.type === "function_call") {
      push({
        type: "response.output_item.added",
        output_index,
        item: { ...item, status: "in_progress", arguments: "" },
      });
      for (const delta of halves(item.arguments)) {
        push({ type: "response.function_call_arguments.delta", item_id: item.id, output_index, delta });
      }
      push({
        type: "response.function_call_arguments.done",
        item_id: item.id,
        output_index,
        arguments: item.arguments,
      });
    } else {
      push({ type: "response.output_item.added", output_index, item });
    }
    push({ type: "response.output_item.done", output_index, item });
  });
  push({ type: "response.completed", response });
  return events;
}

/**
 * A Gemini generateContent body as the chunks `streamGenerateContent?alt=sse` sends: each text part in two pieces
 * (a thought signature on the second), each other part in a chunk of its own, then the finish reason on an empty text
 * part with the whole usage; the chunks before carry only the prompt's count, as Gemini's do.
 */
// biome-ignore lint/suspicious/noExplicitAny: wire shapes
export function geminiStreamChunks(response: any): { data: unknown }[] {
  const candidate = response.candidates[0];
  const role = candidate.content?.role ?? "model";
  const usage = response.usageMetadata;
  const early = usage === undefined ? {} : { usageMetadata: { promptTokenCount: usage.promptTokenCount } };
  // biome-ignore lint/suspicious/noExplicitAny: wire shapes
  const chunk = (part: any, extra: Record<string, unknown> = early, last: Record<string, unknown> = {}) => ({
    data: {
      candidates: [{ content: { role, parts: [part] }, index: 0, ...last }],
      ...extra,
      modelVersion: response.modelVersion ?? "gemini-test",
    },
  });
  const chunks: { data: unknown }[] = [];
  for (const part of candidate.content?.parts ?? []) {
    if (typeof part.text === "string" && part.functionCall === undefined) {
      const { thoughtSignature, ...rest } = part;
      const [first, second] = halves(part.text);
      chunks.push(chunk({ ...rest, text: first }));
      chunks.push(chunk({ ...rest, text: second, ...(thoughtSignature === undefined ? {} : { thoughtSignature }) }));
    } else {
      chunks.push(chunk(part));
    }
  }
  chunks.push(
    chunk(
      { text: "" },
      usage === undefined ? {} : { usageMetadata: usage },
      candidate.finishReason === undefined ? {} : { finishReason: candidate.finishReason },
    ),
  );
  return chunks;
}
