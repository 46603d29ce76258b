// What a crew needs first when it looks up at the wall, and what may give way when space runs out.
// DOM-free (unit tested in Node); views/crew.ts draws the plan and shrinks `limit` until it fits.
//
// Per unit: who is coming, grouped by qualification (the member's label, in the order the unit lists
// them), then who has not answered; declined members are only counted. When not everyone fits, the
// members given way are the not-yet-answered ones first, then coming ones, evenly across units (each
// unit keeps its first members longest), and every unit says how many it does not list ("+3 coming").
import type { Member, Unit } from './alarms.js';

/** A qualification (label) and how many coming members have it. */
export interface Qualification {
  name: string;
  color: string | null;
  count: number;
}

/** A unit sorted for the wall. */
export interface CrewUnit {
  name: string;
  /** Coming members, grouped by qualification. */
  coming: Member[];
  /** Members who have not answered (awaiting first, then unknown feedback). */
  pending: Member[];
  declined: number;
  /** Qualifications of the coming members, in the unit's order. */
  qualifications: Qualification[];
}

/** A unit as drawn: the members listed and the counts of those that did not fit. */
export interface PlannedUnit extends CrewUnit {
  shown: Member[];
  hiddenComing: number;
  hiddenPending: number;
}

/** Sorts each unit's feedback for the wall. */
export function crewUnits(units: Unit[]): CrewUnit[] {
  return units.map((unit) => {
    const order = new Map<string, number>();
    for (const m of unit.members) if (!order.has(m.labelName)) order.set(m.labelName, order.size);
    // Stable sort: members of one qualification keep the order the alarm system sent them in.
    const coming = unit.members
      .filter((m) => m.feedback === 1)
      .sort((a, b) => order.get(a.labelName)! - order.get(b.labelName)!);
    const qualifications: Qualification[] = [];
    for (const m of coming) {
      if (!m.labelName) continue;
      const known = qualifications.find((q) => q.name === m.labelName);
      if (known) known.count++;
      else qualifications.push({ name: m.labelName, color: m.labelColor, count: 1 });
    }
    return {
      name: unit.name,
      coming,
      pending: [
        ...unit.members.filter((m) => m.feedback === 2),
        ...unit.members.filter((m) => m.feedback !== 0 && m.feedback !== 1 && m.feedback !== 2),
      ],
      declined: unit.members.filter((m) => m.feedback === 0).length,
      qualifications,
    };
  });
}

/** How many members the units could list at most. */
export function listable(units: CrewUnit[]): number {
  return units.reduce((n, u) => n + u.coming.length + u.pending.length, 0);
}

/** The units with at most `limit` members listed, the most needed first (see the file comment). */
export function planCrew(units: CrewUnit[], limit: number): PlannedUnit[] {
  const take = units.map(() => ({ coming: 0, pending: 0 }));
  let left = Math.max(0, Math.floor(limit));
  for (const group of ['coming', 'pending'] as const) {
    // Round by round across the units: the first member of every unit, then the second, and so on.
    for (let round = 0; left > 0; round++) {
      let any = false;
      units.forEach((unit, i) => {
        if (left > 0 && round < unit[group].length) {
          take[i][group]++;
          left--;
          any = true;
        }
      });
      if (!any) break;
    }
  }
  return units.map((unit, i) => ({
    ...unit,
    shown: [...unit.coming.slice(0, take[i].coming), ...unit.pending.slice(0, take[i].pending)],
    hiddenComing: unit.coming.length - take[i].coming,
    hiddenPending: unit.pending.length - take[i].pending,
  }));
}
