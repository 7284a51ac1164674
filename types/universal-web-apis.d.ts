/**
 * The WHATWG APIs that exist in every process the shared code runs in (Node, Chromium renderer,
 * Electron preload), declared for tsconfig.shared.json only, so src/shared can use them without
 * seeing the DOM or Node as a whole.
 */
declare class URL {
  constructor(input: string, base?: string | URL);
  readonly protocol: string;
  readonly hostname: string;
  readonly host: string;
  readonly port: string;
  readonly origin: string;
  readonly pathname: string;
  readonly username: string;
  readonly password: string;
  readonly searchParams: URLSearchParams;
  toString(): string;
}

/** The query of a URL, in order; a name may come more than once. */
declare class URLSearchParams {
  [Symbol.iterator](): IterableIterator<[string, string]>;
  get(name: string): string | null;
  getAll(name: string): string[];
}
