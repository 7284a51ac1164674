import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';

/**
 * Reading the built app (electron-vite's out/) the way its loaders will: the URLs the window
 * loads, the modules the main process imports, and the sources a CSP allows.
 */

/** src and href values in the built index.html. */
export function attributeUrls(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
}

/** Files a bundle loads relative to itself: Vite writes `new URL("name", import.meta.url)`. */
export function moduleRelativeUrls(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  return [...code.matchAll(/new URL\((["'`])([^"'`]+)\1,\s*import\.meta\.url\)/g)].map((m) => m[2] as string);
}

/** Package names a built file and the chunks it imports load from node_modules. */
export function bareImports(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  const specifiers = [
    // A specifier has no spaces or commas: that keeps out string lists such as ["from", "to"].
    ...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\(\s*)["']([^"'\s,]+)["']/g),
  ].map((m) => m[1] as string);
  for (const specifier of specifiers) {
    if (specifier.startsWith('.')) {
      for (const name of bareImports(resolve(dirname(file), specifier), seen)) names.add(name);
    } else if (!specifier.startsWith('node:') && !builtinModules.includes(specifier)) {
      names.add(
        specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/'),
      );
    }
  }
  return names;
}

export function findFile(dir: string, matches: (text: string) => boolean): string {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && path.endsWith('.js') && matches(readFileSync(path, 'utf8'))) return path;
  }
  throw new Error(`no file under ${dir} matches`);
}

/** Sources in a CSP that name a scheme, a host or a wildcard: anything that could be remote. */
export function remoteSources(csp: string): string[] {
  return csp
    .split(';')
    .flatMap((directive) => directive.trim().split(/\s+/).slice(1))
    .filter((source) => !/^'[a-z-]+'$/.test(source) && source !== 'data:');
}
