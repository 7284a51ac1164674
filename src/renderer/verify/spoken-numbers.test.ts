import { describe, expect, it } from 'vitest';
import { readNumber } from './spoken-numbers';
import { tokenize } from './tokens';

/** The number read from the start of `text`, and how many tokens it took. */
function read(text: string) {
  const tokens = tokenize(text);
  const found = readNumber(tokens, 0);
  return found && { value: found.value, words: found.next - found.first };
}

describe('numbers as they are said and as they are typed', () => {
  it.each([
    ['five hundred', 500],
    ['one hundred and two', 102],
    ['one hundred twenty', 120],
    ['one fifty', 150],
    ['one twenty', 120],
    ['one oh one', 101],
    ['seventy two', 72],
    ['seventy-two', 72],
    ['ninety-eight point six', 98.6],
    ['thirty eight point two', 38.2],
    ['point five', 0.5],
    ['zero point two five', 0.25],
    ['one and a half', 1.5],
    ['a hundred and one', 101],
    ['a thousand', 1000],
    ['one thousand five hundred', 1500],
    ['fifteen hundred', 1500],
    ['twenty five hundred', 2500],
    ['fifty thousand', 50000],
    ['eighty one', 81],
    ['fourteen', 14],
  ])('reads "%s" as %d', (said, value) => {
    expect(read(said)?.value).toBe(value);
  });

  it.each([
    ['500', 500],
    ['1,000', 1000],
    ['50,000', 50000],
    ['38.2', 38.2],
    ['.5', 0.5],
    ['12.5', 12.5],
    ['2 and a half', 2.5],
  ])('reads typed "%s" as %d', (typed, value) => {
    expect(read(typed)?.value).toBe(value);
  });

  it('reads no number from an article, a word, or a lone "point"', () => {
    expect(read('a day')).toBeUndefined();
    expect(read('an hour')).toBeUndefined();
    expect(read('left knee')).toBeUndefined();
    expect(read('point of care')).toBeUndefined();
  });

  it('stops at the end of the number and never reaches across a sentence', () => {
    expect(read('seventy two beats')).toEqual({ value: 72, words: 2 });
    expect(read('seventy. Two more')).toEqual({ value: 70, words: 1 });
  });

  it('keeps the second reading of a number said in pairs ("one ten milligram" may be one 10 mg tablet)', () => {
    const tokens = tokenize('one ten milligram');
    expect(readNumber(tokens, 0)).toMatchObject({ value: 110, pairAt: 1 });
    expect(readNumber(tokens, 1)?.value).toBe(10);
  });
});
