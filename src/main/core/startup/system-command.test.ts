import { describe, expect, it } from 'vitest';
import { windowsSystemTool } from './system-command';

describe('Windows tools by absolute path', () => {
  const here = (path: string) => path === 'C:\\Windows\\System32\\reg.exe';
  const nowhere = () => false;

  it('takes C:\\Windows first, whatever SystemRoot says', () => {
    expect(windowsSystemTool({ SystemRoot: 'D:\\Mine' }, 'reg.exe', here)).toBe(
      'C:\\Windows\\System32\\reg.exe',
    );
  });

  it('takes SystemRoot where Windows is not in C:\\Windows, but only a plain drive path', () => {
    expect(windowsSystemTool({ SystemRoot: 'D:\\Windows' }, 'reg.exe', nowhere)).toBe(
      'D:\\Windows\\System32\\reg.exe',
    );
    for (const SystemRoot of [
      '\\\\fileserver\\share',
      '//fileserver/share',
      'Windows',
      'D:\\..\\x',
      undefined,
    ])
      expect(windowsSystemTool({ SystemRoot }, 'reg.exe', nowhere), String(SystemRoot)).toBe(
        'C:\\Windows\\System32\\reg.exe',
      );
  });
});
