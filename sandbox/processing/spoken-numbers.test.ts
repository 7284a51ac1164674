import { describe, expect, it } from 'vitest';
import { readDate } from './spoken-dates';
import { findNumbers } from './spoken-numbers';
import { wordsOf } from './text-match';

const values = (text: string) => findNumbers(wordsOf(text)).map((n) => n.value);

describe('spoken numbers', () => {
  it.each([
    ['one hundred twenty over eighty', [120, 80]],
    ['one hundred and twenty over eighty', [120, 80]],
    ['one twenty over eighty', [120, 80]],
    ['one thirty two over eighty four', [132, 84]],
    ['one oh five over sixty', [105, 60]],
    ['heart rate seventy two', [72]],
    ['temperature ninety eight point six', [98.6]],
    ['thirty seven point two degrees', [37.2]],
    ['a fever of one hundred one point three', [101.3]],
    ['a hundred percent', [100]],
    ['two thousand five', [2005]],
    ['pain is seven out of ten', [7, 10]],
    ['two or three times a week', [2, 3]],
    ['120/80', [120, 80]],
    ['BP 132/84, HR 72, temp 98.6.', [132, 84, 72, 98.6]],
    ['a cough and a cold', []],
  ])('%s → %j', (text, expected) => {
    expect(values(text)).toEqual(expected);
  });

  it('stops a number at the end of a sentence', () => {
    expect(values('I was seen in room one. Twenty minutes later it stopped.')).toEqual([1, 20]);
  });
});

describe('spoken dates', () => {
  it.each([
    ['march fifth twenty twenty four', '2024-03-05'],
    ['on the twenty first of june nineteen sixty one', '1961-06-21'],
    ['May 5 2024', '2024-05-05'],
    ['april third two thousand nine', '2009-04-03'],
    ['2024-03-05', '2024-03-05'],
    ['3/5/2024', '2024-03-05'],
    ['february thirtieth twenty twenty four', undefined],
    ['march fifth', undefined],
  ])('%s → %s', (text, expected) => {
    expect(readDate(wordsOf(text))).toBe(expected);
  });
});
