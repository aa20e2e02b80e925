// Metro tiles in words, from the engine's track table (GET /api/metro/tiles), never a table of
// their own: each of a tile's four tracks, by the side it comes in from, runs straight, turns
// left or right (as a traveller on it sees it) or makes a U-turn back out the same side. A name
// says every side, so no two tiles share one: "four straights", "straights from north and
// south, left turn from east, right turn from west". The 4-letter code stays for tooltips and
// the viewer (`tileMention` in draw.js puts a small picture beside a name).

const SIDES = ['north', 'east', 'south', 'west'];
/** By how many quarter turns clockwise the way out is from the way in. */
const KINDS = { 2: ['straight', 'straights', 'from'], 1: ['left turn', 'left turns', 'from'], 3: ['right turn', 'right turns', 'from'], 0: ['U-turn', 'U-turns', 'at'] };
const ORDER = [2, 1, 3, 0];
const COUNT = ['', 'one', 'two', 'three', 'four'];

function list(words) {
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** A tile's name from its tracks: "four U-turns", "straights from north and east, …". */
export function tileName(table, code) {
  const info = table.tiles.find((t) => t.code === code);
  if (!info) return 'a tile';
  const sidesOf = new Map(ORDER.map((k) => [k, []]));
  for (const [entry, out] of info.tracks) {
    const from = entry >> 1;
    sidesOf.get(((out >> 1) - from + 4) % 4).push(from);
  }
  const parts = [];
  for (const k of ORDER) {
    const sides = sidesOf.get(k).sort();
    if (!sides.length) continue;
    const [one, many, by] = KINDS[k];
    if (sides.length === 4) return `four ${many}`;
    parts.push(`${sides.length === 1 ? one : many} ${by} ${list(sides.map((s) => SIDES[s]))}`);
  }
  return parts.join(', ');
}

/** The name with a capital first letter, to open a sentence. */
export function tileNameCapital(table, code) {
  const name = tileName(table, code);
  return name.charAt(0).toUpperCase() + name.slice(1);
}
