/**
 * go-yaml v2's two judgements about text that the YAML writer needs: the order it sorts map keys
 * in, and whether plain text would read back as something other than a string (YAML 1.1's
 * booleans, nulls, numbers, sexagesimals and timestamps), so that it must be quoted.
 */

const isLetter = (c: string): boolean =>
  (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c > '\x7f' && /\p{L}/u.test(c));
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

const NON_ASCII = /[\u0080-\uffff]/;
const LETTERS_AND_PUNCTUATION = /^[A-Za-z\x20-\x2f:;<=>?@]*$/;

/** go-yaml v2's keyList.Less for two string keys: runs of digits compare by value. */
export function goYamlKeyLess(a: string, b: string): boolean {
  // Without digits or the ASCII symbols between the letters, that is the code units' order.
  if (LETTERS_AND_PUNCTUATION.test(a) && LETTERS_AND_PUNCTUATION.test(b)) return a < b;
  // Keys are ASCII almost always: their UTF-16 units are their runes.
  const ascii = !NON_ASCII.test(a) && !NON_ASCII.test(b);
  const ar = ascii ? a : Array.from(a);
  const br = ascii ? b : Array.from(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const ac = ar[i] as string;
    const bc = br[i] as string;
    if (ac === bc) continue;
    const al = isLetter(ac);
    const bl = isLetter(bc);
    if (al && bl) return ac < bc;
    if (al || bl) return bl;
    // A run after a non-zero digit keeps its leading zeros in the value.
    let an = 0;
    let bn = 0;
    if (ac === '0' || bc === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j] as string); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai] as string); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && isDigit(br[bi] as string); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ac < bc;
  }
  return ar.length < br.length;
}

/** go-yaml v2's resolve table: the words YAML 1.1 reads as booleans, null, infinities, merge. */
const RESOLVED_WORDS = new Set(
  [
    'y Y yes Yes YES on On ON n N no No NO off Off OFF true True TRUE false False FALSE',
    '~ null Null NULL .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF .nan .NaN .NAN <<',
  ]
    .join(' ')
    .split(' '),
);
// strconv.ParseInt/ParseUint with base 0 (after go-yaml drops underscores), and yamlStyleFloat.
const INT = /^[-+]?(0[bB][01]+|0[oO]?[0-7]+|0[xX][0-9a-fA-F]+|[0-9]+)$/;
const FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
// parseTimestamp's layouts: a date, optionally with a time ("T", "t" or a space) and a zone.
const TIMESTAMP =
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]| )[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]{1,9})?(?:Z|[-+][0-9]{2}:[0-9]{2})?)?$/;

/** Whether go-yaml would read the plain text `s` as anything but a string (then it quotes it). */
export function resolvesToNonString(s: string): boolean {
  if (s === '' || RESOLVED_WORDS.has(s)) return true;
  const c = s[0] as string;
  if (!(isDigit(c) || c === '+' || c === '-' || c === '.')) return false;
  const plain = s.replaceAll('_', '');
  return INT.test(plain) || FLOAT.test(plain) || TIMESTAMP.test(s) || BASE60_FLOAT.test(s);
}
