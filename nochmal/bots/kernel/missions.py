"""The co-op missions M1-M5 in compiled code: each requirement's progress, team-wide (any sheet
counts). Python twin: :mod:`nochmal.engine.missions` (:func:`~nochmal.engine.missions.mission_progress`).
"""

from __future__ import annotations

from .cache import njit


@njit(_nrt=False)
def _counts(t, g, st, n, r, miss):
    """Requirement ``r`` now (:func:`nochmal.engine.missions.mission_progress`): (items done, items
    needed), and ``miss`` marks what is missing (colours 0-4; row labels by id; columns 0-14; numbers)."""
    miss[:] = False
    kind = t.req_kind[r]
    if kind == 0:  # colours completed (settled) on any sheet
        have = 0
        for c in range(5):
            done = False
            for p in range(n):
                if st.colour_done[p, c]:
                    done = True
            have += done
            miss[c] = not done
        return have, t.req_needed[r]
    if kind == 1:  # rows filled on any sheet, by label (the first seat's labels)
        for row in range(7):
            miss[g.lab0[row]] = True
        for row in range(7):
            for p in range(n):
                if st.row_n[p, row] == 15:
                    miss[g.lab0[row]] = False
        have = 0
        for row in range(7):  # distinct labels done
            lab = g.lab0[row]
            if not miss[lab]:
                first = True
                for q in range(row):
                    if g.lab0[q] == lab:
                        first = False
                have += first
        return have, t.req_needed[r]
    if kind == 2:  # a star crossed in every column
        have = 0
        for c in range(15):
            found = False
            for p in range(n):
                for row in range(7):
                    cell = row * 15 + c
                    if t.star[p, cell] and st.crossed[p, cell]:
                        found = True
            have += found
            miss[c] = not found
        return have, 15
    if kind == 3:  # every number of the sheets filled on a sheet that has it
        have = 0
        need = 0
        for num in range(g.num_exists.shape[0]):
            if not g.num_exists[num]:
                continue
            need += 1
            done = False
            for q in range(n):
                for f in range(t.nf_num.shape[1]):
                    if t.nf_num[q, f] == num:
                        full = True
                        for j in range(4):
                            if not st.crossed[q, t.nf_cells[q, f, j]]:
                                full = False
                        if full:
                            done = True
            have += done
            miss[num] = not done
        return have, need
    return st.sc[1], t.seq.shape[0]  # the sequence (settled at the end of a turn)


@njit(_nrt=False)
def _progress(t, g, st, n, r, miss):
    """Requirement ``r`` is met (:func:`_counts`; ``miss`` marks what is missing)."""
    have, need = _counts(t, g, st, n, r, miss)
    return have >= need


@njit(_nrt=False)
def _mission_complete(t, g, st, n, miss):
    """M1-M5: every requirement met, team-wide (any sheet counts)."""
    for r in range(t.req_kind.shape[0]):
        if not _progress(t, g, st, n, r, miss):
            return False
    return True
