// A command's output as it streams: counts everything, keeps only the tail a model will see, spots binary.
import { formatSize, MAX_OUTPUT_BYTES, type Truncation, truncateTail } from "./truncate.js";

/** The part of a command's output a result shows, and what it says about the rest. */
export interface RenderedOutput {
  readonly text: string;
  readonly binary: boolean;
  readonly truncation: Truncation | undefined;
  readonly totalBytes: number;
  readonly totalLines: number;
}

/** Collects output chunks, keeping at most a little more than `MAX_OUTPUT_BYTES` of the end. */
export class OutputTail {
  #chunks: Buffer[] = [];
  #kept = 0;
  #totalBytes = 0;
  #newlines = 0;
  #lastByte = -1;
  #sawNul = false;
  #invalid = false;
  readonly #decoder = new TextDecoder("utf-8", { fatal: true });

  /** Adds a chunk. */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.#totalBytes += chunk.length;
    this.#lastByte = chunk[chunk.length - 1] as number;
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) this.#newlines++;
    if (!this.#sawNul && chunk.includes(0)) this.#sawNul = true;
    if (!this.#invalid) {
      try {
        this.#decoder.decode(chunk, { stream: true });
      } catch {
        this.#invalid = true;
      }
    }
    this.#chunks.push(chunk);
    this.#kept += chunk.length;
    // Keep whole chunks while what remains without the first one still covers the byte limit.
    while (this.#chunks.length > 1 && this.#kept - (this.#chunks[0] as Buffer).length > MAX_OUTPUT_BYTES + 4) {
      this.#kept -= (this.#chunks.shift() as Buffer).length;
    }
  }

  /** Bytes received so far. */
  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** The last 2000 lines / 50 KB as text, or a description when the output is binary. */
  render(): RenderedOutput {
    const totalBytes = this.#totalBytes;
    const totalLines = totalBytes === 0 ? 0 : this.#newlines + (this.#lastByte === 0x0a ? 0 : 1);
    let tail = Buffer.concat(this.#chunks);
    if (this.#kept < totalBytes) {
      // The retained tail may start inside a character: skip its continuation bytes.
      let start = 0;
      while (start < tail.length && ((tail[start] as number) & 0xc0) === 0x80) start++;
      tail = tail.subarray(start);
    }
    const text = tail.toString("utf8");
    const replaced = this.#invalid ? countReplacements(text) : 0;
    const binary = this.#sawNul || (this.#invalid && replaced > Math.max(8, text.length / 100));
    if (binary) {
      return {
        text: `[The command wrote ${formatSize(totalBytes)} of binary output (NUL bytes or bytes that are not UTF-8); it is not shown. Pipe it through a tool such as \`xxd | head\`, \`od -c | head\` or \`base64\`, or redirect it to a file.]`,
        binary: true,
        truncation: undefined,
        totalBytes,
        totalLines,
      };
    }
    const truncation = truncateTail(text);
    let shown = truncation.text;
    if (this.#invalid) shown += "\n[Some output bytes were not valid UTF-8 and are shown as \uFFFD.]";
    return { text: shown, binary: false, truncation, totalBytes, totalLines };
  }
}

function countReplacements(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\uFFFD"); at !== -1; at = text.indexOf("\uFFFD", at + 1)) count++;
  return count;
}
