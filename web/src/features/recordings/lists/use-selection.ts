// The selection moved to lib/ once the supervision queue needed the same one; the recordings lists keep this path.
export { useSelection, type Selection } from '../../../lib/use-selection.ts';
