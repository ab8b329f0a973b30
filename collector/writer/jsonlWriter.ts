import type {AppendFile, Files} from "../effects.ts";
import {repairTail, type TailRepair} from "./tail.ts";

/** A record without its `seq` (distributes over unions such as ClientRecord). */
export type WithoutSeq<T> = T extends unknown ? Omit<T, "seq"> : never;

export interface JsonlWriterOptions {
  /** Write the buffer as soon as it holds this many bytes (default 256 KiB). */
  maxBufferBytes?: number;
  /** Called once, with the first write or sync error; the writer drops everything after it. */
  onError?: (error: Error, path: string) => void;
}

/**
 * Append-only JSONL with `seq` from 0 (or continuing after a resume). `append` only buffers; `flush`
 * writes the buffer with one call, `sync` also fdatasyncs. Writes are chained so they never overlap.
 * The file is never appended to unless its last byte is "\n" (a torn tail is cut first, see repairTail).
 */
export class JsonlWriter<T extends {seq: number}> {
  readonly path: string;
  #file: AppendFile;
  #buffer: string[] = [];
  #bufferBytes = 0;
  #seq: number;
  #chain: Promise<void> = Promise.resolve();
  #error: Error | null = null;
  #closed = false;
  #written = 0;
  #options: JsonlWriterOptions;

  private constructor(path: string, file: AppendFile, nextSeq: number, options: JsonlWriterOptions) {
    this.path = path;
    this.#file = file;
    this.#seq = nextSeq;
    this.#options = options;
  }

  /** Opens a file for appending; an existing file has its torn tail repaired first and `seq` continues. */
  static async open<T extends {seq: number}>(
    files: Files,
    path: string,
    options: JsonlWriterOptions = {}
  ): Promise<{writer: JsonlWriter<T>; repair: TailRepair | null}> {
    let repair: TailRepair | null = null;
    let next = 0;
    if (await files.exists(path)) {
      repair = await repairTail(files, path);
      next = repair.lastSeq === null ? 0 : repair.lastSeq + 1;
    }
    const file = await files.openAppend(path);
    return {writer: new JsonlWriter<T>(path, file, next, options), repair};
  }

  /** Buffers one record with the next `seq`; returns that seq (or null after a write error). */
  append(record: WithoutSeq<T>): number | null {
    if (this.#error || this.#closed) return null;
    const seq = this.#seq++;
    const body = JSON.stringify(record);
    const line = body === "{}" ? `{"seq":${seq}}\n` : `{"seq":${seq},${body.slice(1)}\n`;
    this.#buffer.push(line);
    this.#bufferBytes += line.length;
    if (this.#bufferBytes >= (this.#options.maxBufferBytes ?? 1 << 18)) void this.flush();
    return seq;
  }

  /** Records appended so far (including buffered ones). */
  get nextSeq(): number {
    return this.#seq;
  }

  get error(): Error | null {
    return this.#error;
  }

  /** Bytes handed to the file system so far. */
  get bytesWritten(): number {
    return this.#written;
  }

  flush(): Promise<void> {
    if (this.#buffer.length === 0) return this.#chain;
    const text = this.#buffer.join("");
    this.#buffer = [];
    this.#bufferBytes = 0;
    return this.#enqueue(async () => {
      await this.#file.write(text);
      this.#written += Buffer.byteLength(text);
    });
  }

  sync(): Promise<void> {
    void this.flush();
    return this.#enqueue(() => this.#file.sync());
  }

  async close(): Promise<void> {
    if (this.#closed) return this.#chain;
    await this.sync();
    this.#closed = true;
    try {
      await this.#file.close();
    } catch (e) {
      this.#fail(e as Error);
    }
  }

  #enqueue(op: () => Promise<void>): Promise<void> {
    this.#chain = this.#chain.then(async () => {
      if (this.#error) return;
      try {
        await op();
      } catch (e) {
        this.#fail(e as Error);
      }
    });
    return this.#chain;
  }

  #fail(e: Error): void {
    if (this.#error) return;
    this.#error = e;
    this.#buffer = [];
    this.#options.onError?.(e, this.path);
  }
}
