import { describe, expect, it } from 'vitest';
import type {
  SiteItemPointer,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  SiteStructure,
  Space,
} from '../../../../shared/contract';
import {
  allGroups,
  allSections,
  allSiteSpaces,
  applySort,
  dropIndex,
  keyOf,
  pointerOf,
  positionAt,
  structureNodes,
} from './structure';

const space = { object: 'space', id: 'space', title: 'Space' } as Space;

const siteSpace = (id: string, section?: string): SiteSpace => ({
  object: 'site-space',
  id,
  path: id,
  section,
  space,
  title: id,
  default: false,
  urls: {},
});

const section = (id: string, siteSpaces: string[] = [], sectionGroup?: string): SiteSection => ({
  object: 'site-section',
  id,
  title: id,
  default: false,
  path: id,
  sectionGroup,
  siteSpaces: siteSpaces.map((ss) => siteSpace(ss, id)),
  urls: {},
});

const group = (id: string, sections: SiteSection[]): SiteSectionGroup => ({
  object: 'site-section-group',
  id,
  title: id,
  sections,
  children: sections,
});

const p = (type: SiteItemPointer['type'], id: string): SiteItemPointer => ({ type, id });
const ids = (items: { id: string }[]) => items.map((item) => item.id);

/** Top level: section a (spaces a1, a2, a3), group g (sections b, c), section d. */
const sections: SiteStructure = {
  type: 'sections',
  structure: [
    section('a', ['a1', 'a2', 'a3']),
    group('g', [section('b', ['b1'], 'g'), section('c', [], 'g')]),
    section('d'),
  ],
};

describe('structureNodes and the lists of a structure', () => {
  it('gives the top level with groups holding sections and sections holding site spaces', () => {
    const nodes = structureNodes(sections);
    expect(nodes.map((n) => keyOf(pointerOf(n)))).toEqual(['site-section:a', 'site-section-group:g', 'site-section:d']);
    const g = nodes[1]!;
    expect(g.kind === 'site-section-group' && g.sections.map((n) => keyOf(pointerOf(n)))).toEqual([
      'site-section:b',
      'site-section:c',
    ]);
    const a = nodes[0]!;
    expect(a.kind === 'site-section' && a.siteSpaces.map((n) => pointerOf(n).id)).toEqual(['a1', 'a2', 'a3']);
  });

  it('lists sections, site spaces and groups in reading order', () => {
    expect(ids(allSections(sections))).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(allSiteSpaces(sections))).toEqual(['a1', 'a2', 'a3', 'b1']);
    expect(ids(allGroups(sections))).toEqual(['g']);
  });

  it('reads a site without sections as its site spaces', () => {
    const flat: SiteStructure = { type: 'siteSpaces', structure: [siteSpace('x'), siteSpace('y')] };
    expect(structureNodes(flat).map((n) => n.kind)).toEqual(['site-space', 'site-space']);
    expect(allSections(flat)).toEqual([]);
    expect(ids(allSiteSpaces(flat))).toEqual(['x', 'y']);
  });
});

describe('positionAt', () => {
  const siblings = ['a', 'b', 'c', 'd'].map((id) => p('site-section', id));

  it('moves up: after the one two places up, before the one above', () => {
    expect(positionAt(siblings, p('site-section', 'c'), 1)).toEqual({
      after: p('site-section', 'a'),
      before: p('site-section', 'b'),
    });
  });

  it('moves down: after the one below, before the one after it', () => {
    expect(positionAt(siblings, p('site-section', 'a'), 1)).toEqual({
      after: p('site-section', 'b'),
      before: p('site-section', 'c'),
    });
  });

  it('names one neighbour only at either end', () => {
    expect(positionAt(siblings, p('site-section', 'c'), 0)).toEqual({ before: p('site-section', 'a') });
    expect(positionAt(siblings, p('site-section', 'a'), 3)).toEqual({ after: p('site-section', 'd') });
  });

  it('clamps an index past either end', () => {
    expect(positionAt(siblings, p('site-section', 'b'), -4)).toEqual({ before: p('site-section', 'a') });
    expect(positionAt(siblings, p('site-section', 'b'), 40)).toEqual({ after: p('site-section', 'd') });
  });

  it('tells sections from groups with the same id', () => {
    const mixed = [p('site-section', 'x'), p('site-section-group', 'x'), p('site-section', 'y')];
    expect(positionAt(mixed, p('site-section', 'y'), 0)).toEqual({ before: p('site-section', 'x') });
    expect(positionAt(mixed, p('site-section', 'x'), 1)).toEqual({
      after: p('site-section-group', 'x'),
      before: p('site-section', 'y'),
    });
  });
});

describe('dropIndex', () => {
  it('counts the place without the dragged item', () => {
    // [A, B, C]: A dropped on the lower half of C goes last; on the upper half of C, between B and C.
    expect(dropIndex(0, 2, 'after')).toBe(2);
    expect(dropIndex(0, 2, 'before')).toBe(1);
    // C dropped on the upper half of A goes first; on the lower half of A, second.
    expect(dropIndex(2, 0, 'before')).toBe(0);
    expect(dropIndex(2, 0, 'after')).toBe(1);
  });

  it('answers the same place when dropped beside itself', () => {
    expect(dropIndex(1, 0, 'after')).toBe(1);
    expect(dropIndex(1, 2, 'before')).toBe(1);
  });
});

describe('applySort', () => {
  it('reorders the top level, keeping groups whole', () => {
    const moved = applySort(sections, p('site-section', 'd'), { before: p('site-section-group', 'g') });
    expect(ids(moved.structure)).toEqual(['a', 'd', 'g']);
    expect(ids(allSections(moved))).toEqual(['a', 'd', 'b', 'c']);
  });

  it('reorders the sections of a group, in both of its lists', () => {
    const moved = applySort(sections, p('site-section', 'c'), { before: p('site-section', 'b') });
    const g = allGroups(moved)[0]!;
    expect(ids(g.sections)).toEqual(['c', 'b']);
    expect(ids(g.children)).toEqual(['c', 'b']);
  });

  it('reorders the site spaces of a section', () => {
    const moved = applySort(sections, p('site-space', 'a3'), {
      after: p('site-space', 'a1'),
      before: p('site-space', 'a2'),
    });
    expect(ids(allSiteSpaces(moved))).toEqual(['a1', 'a3', 'a2', 'b1']);
  });

  it('puts an item last when the position names no sibling', () => {
    const moved = applySort(sections, p('site-space', 'a1'), {});
    expect(ids(allSiteSpaces(moved))).toEqual(['a2', 'a3', 'a1', 'b1']);
  });

  it('reorders site spaces at the root of a site without sections', () => {
    const flat: SiteStructure = { type: 'siteSpaces', structure: [siteSpace('x'), siteSpace('y'), siteSpace('z')] };
    expect(ids(applySort(flat, p('site-space', 'z'), { before: p('site-space', 'x') }).structure)).toEqual([
      'z',
      'x',
      'y',
    ]);
  });

  it('leaves the structure as it is for an item it does not hold', () => {
    expect(applySort(sections, p('site-section', 'nope'), { before: p('site-section', 'a') })).toEqual(sections);
  });
});
