import type { Page } from 'playwright';
import { VALUE_LABELS } from '../../../shared/api/words/value-labels.ts';

/*
 * What a screen must never show a person, read from its rendered text: the page scrolling
 * sideways, the API's raw enumerated values, ISO timestamps, ids where a name belongs (toasts,
 * dialog titles), and wording that slipped (a label lower-cased mid-sentence, Title Case in a
 * heading or button, a list's Add button repeating a plural label).
 */

/** Values a person would only see raw: the API's SHOUTED and snake_case ones. */
const RAW_VALUES = [
  ...new Set(
    Object.values(VALUE_LABELS).flatMap((labels) =>
      Object.keys(labels).filter((v) => v.includes('_') || /^[A-Z]{3,}$/.test(v)),
    ),
  ),
];

/** Phrases that were on screen once and must not come back. */
const SLIPS = [
  /\bssh (credentials?|keys?|certificates?)\b/,
  /\bhttp[- ]response\b/,
  /\bapi key\b/,
  /\bip polic(y|ies)\b/,
  /\bAdd [A-Z]\w* to add\b/,
];

const ISO = /\b\d{4}-\d\d-\d\dT\d\d:\d\d/;
const ID = /\b[a-z]{2,9}_[A-Za-z0-9]{10,}\b/;

// Evaluated in the page, as a string: this file is type-checked for Node, without the DOM's names.
const READ = `(() => {
  const text = (el) => (el.innerText || '').replace(/\\s+/g, ' ').trim();
  const all = (selector) => [...document.querySelectorAll(selector)].map(text).filter(Boolean);
  const root = document.documentElement;
  return {
    overflow: root.scrollWidth - root.clientWidth,
    body: text(document.body),
    named: all('[role="status"], [role="alert"] .message, [role="dialog"] h2'),
    headings: all('h1, h2, h3, button'),
  };
})()`;

type Read = { overflow: number; body: string; named: string[]; headings: string[] };

/** Every problem of the page's wording as it is now, each naming what and where. */
export async function wordingProblems(page: Page, where: string): Promise<string[]> {
  const read = (await page.evaluate(READ)) as Read;
  const problems: string[] = [];
  if (read.overflow > 0) problems.push(`${where}: scrolls sideways by ${read.overflow} px`);
  for (const value of RAW_VALUES)
    if (new RegExp(`\\b${value}\\b`).test(read.body))
      problems.push(`${where}: shows the raw value ${value}`);
  const iso = ISO.exec(read.body);
  if (iso) problems.push(`${where}: shows an ISO time (${iso[0]}…)`);
  for (const slip of SLIPS) {
    const found = slip.exec(read.body);
    if (found) problems.push(`${where}: reads "${found[0]}"`);
  }
  for (const named of read.named)
    if (ID.test(named)) problems.push(`${where}: an id where a name belongs: "${named}"`);
  for (const heading of read.headings) {
    const words = heading.split(' ').filter((w) => /^[A-Za-z]{3,}$/.test(w));
    if (words.length >= 3 && words.every((w) => /^[A-Z][a-z]+$/.test(w)))
      problems.push(`${where}: Title Case in "${heading}"`);
  }
  return problems;
}
