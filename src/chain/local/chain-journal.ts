/**
 * The embedded chain's write-ahead journal: `<dataDir>/chain/journal.ndjson`, one JSON object per
 * line, appended and fdatasync'ed before the JSON-RPC answer leaves the process. See
 * docs/chain.md ("Persistence") for the format and the guarantees.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { ChainAddresses } from '../chain-config';

export const JOURNAL_VERSION = 1;

/** First line: what the chain was created with. */
export interface JournalHeader {
  k: 'header';
  v: number;
  chainId: number;
  /** Seconds since the epoch: the genesis block's timestamp, reused on replay. */
  genesisBlockTime: number;
  genesisHash: string;
  createdAt: string;
}

/** A successful state-changing JSON-RPC request, replayed literally. */
export interface JournalRpc {
  k: 'rpc';
  m: string;
  p: unknown[];
  /** The result, kept for transaction methods (the hash), compared on replay. */
  r?: unknown;
  /** Receipt status of a mined transaction ('0x1' / '0x0'). */
  s?: string;
  /** The chain head after the request: number and hash (the hash pins every block's content and timestamp). */
  n: number;
  h: string;
  /** Timestamp of the first block the request mined, if it mined any. */
  t0?: number;
  /** EDR's time offset (seconds) after the request, so the clock can be restored after replay. */
  o: number;
}

/** Empty blocks of the interval miner, run-length encoded: `[firstTimestamp, count, interval]`. */
export interface JournalEmpty {
  k: 'empty';
  from: number;
  to: number;
  runs: [number, number, number][];
  h: string;
}

export interface JournalDeployment {
  k: 'deployment';
  addresses: ChainAddresses;
  blockNumber: number;
}

export type JournalEntry = JournalRpc | JournalEmpty | JournalDeployment;

/** The journal cannot be read or replayed: the chain would not be the one clients remember. */
export class ChainJournalError extends Error {
  constructor(readonly file: string, readonly line: number | undefined, problem: string) {
    const where = line === undefined ? file : `${file} line ${line}`;
    super(
      `Embedded chain journal ${where}: ${problem}. The chain cannot be restored to its previous state; ` +
      'refusing to start on a diverged chain. To start over with a fresh chain (losing its balances, ' +
      `orders' on-chain state and nonces), move the journal aside: mv '${file}' '${file}.bad-${Date.now()}'`,
    );
    this.name = 'ChainJournalError';
  }
}

export interface ReadJournal {
  header: JournalHeader;
  /** Entries with their 1-based line numbers. */
  entries: { line: number; entry: JournalEntry }[];
  /** A torn last line (crash in the middle of a write, never acknowledged) was cut off. */
  truncatedTail: boolean;
}

export function journalPath(dataDir: string): string {
  return path.join(dataDir, 'chain', 'journal.ndjson');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkEntry(value: unknown): value is JournalEntry {
  if (!isObject(value)) return false;
  if (value.k === 'rpc') return typeof value.m === 'string' && Array.isArray(value.p) && typeof value.n === 'number' && typeof value.h === 'string' && typeof value.o === 'number';
  if (value.k === 'empty') return typeof value.from === 'number' && typeof value.to === 'number' && Array.isArray(value.runs) && typeof value.h === 'string';
  if (value.k === 'deployment') return isObject(value.addresses) && typeof value.blockNumber === 'number';
  return false;
}

/**
 * Reads the journal, or undefined when there is none (or it is empty). A last line without its
 * newline that does not parse is a torn write: it is cut off the file (its request was never
 * answered). Anything else that does not parse is corruption and throws ChainJournalError.
 */
export async function readJournal(file: string): Promise<ReadJournal | undefined> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (text.length === 0) return undefined;
  const lines = text.split('\n');
  let truncatedTail = false;
  const tail = lines.pop() ?? '';
  if (tail !== '') {
    try {
      JSON.parse(tail);
      lines.push(tail); // complete but without newline: keep it, and end the file properly
      await fsp.appendFile(file, '\n');
    } catch {
      truncatedTail = true;
      await fsp.truncate(file, Buffer.byteLength(text, 'utf8') - Buffer.byteLength(tail, 'utf8'));
    }
  }
  if (lines.length === 0) return undefined;
  const parse = (line: string, n: number): unknown => {
    try {
      return JSON.parse(line);
    } catch {
      throw new ChainJournalError(file, n, 'line is not valid JSON (the file is corrupted)');
    }
  };
  const header = parse(lines[0], 1);
  if (!isObject(header) || header.k !== 'header' || typeof header.genesisBlockTime !== 'number' || typeof header.chainId !== 'number') {
    throw new ChainJournalError(file, 1, 'the first line is not a journal header');
  }
  if (header.v !== JOURNAL_VERSION) throw new ChainJournalError(file, 1, `unsupported journal version ${String(header.v)}`);
  const entries = lines.slice(1).map((line, i) => {
    const entry = parse(line, i + 2);
    if (!checkEntry(entry)) throw new ChainJournalError(file, i + 2, 'not a journal entry');
    return { line: i + 2, entry };
  });
  return { header: header as unknown as JournalHeader, entries, truncatedTail };
}

/** Appends lines durably: each append is written and fdatasync'ed before it resolves. */
export class JournalWriter {
  private constructor(readonly file: string, private readonly handle: fsp.FileHandle) {}

  static async open(file: string): Promise<JournalWriter> {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const handle = await fsp.open(file, 'a');
    return new JournalWriter(file, handle);
  }

  /** Writes a new journal with only its header (the file must not exist yet). */
  static async create(file: string, header: JournalHeader): Promise<JournalWriter> {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const handle = await fsp.open(file, 'wx');
    await handle.write(`${JSON.stringify(header)}\n`);
    await handle.datasync();
    // The directory entry of a new file must be durable too.
    const dir = fs.openSync(path.dirname(file), 'r');
    try {
      fs.fsyncSync(dir);
    } finally {
      fs.closeSync(dir);
    }
    return new JournalWriter(file, handle);
  }

  async append(entry: JournalEntry): Promise<void> {
    await this.handle.write(`${JSON.stringify(entry)}\n`);
    await this.handle.datasync();
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}
