/*
 * The Python module nines.solver._core: the Solver type (one transposition table each),
 * the checks of what Python passes in, and legal() for the tests.  The search itself runs
 * without the Python lock (Py_BEGIN_ALLOW_THREADS), so threads with their own solvers run
 * in parallel.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"
#include "moves.h"

/* ------------------------------------------------------------------------------------
 * Python glue
 * ---------------------------------------------------------------------------------- */
typedef struct {
    PyObject_HEAD
    TT tt;
    size_t bytes;
    int busy;
    int use_partition, use_tt, use_bounds;
    /* the deal the table's entries came from: same settings, cards a subset -> keep */
    int last_np, last_rule, last_trump, last_maxmask;
    uint16_t deal_cards[NSUITS];
    uint64_t last_nodes, total_nodes;
    uint64_t st[5], st_depth[MAXRANKS + 1]; /* counters of the last call */
} SolverObject;

static void keep_stats(SolverObject *self, const Ctx *c) {
    self->last_nodes = c->nodes;
    self->total_nodes += c->nodes;
    self->st[0] = c->st_bound; self->st[1] = c->st_probe; self->st[2] = c->st_hit; self->st[3] = c->tt->stores; self->st[4] = c->st_tricks;
    memcpy(self->st_depth, c->st_depth, sizeof self->st_depth);
#ifdef SOLVER_STATS /* a developer's view of the search, on standard error */
    for (int i = 0; i <= MAXRANKS; i++) fprintf(stderr, "%llu ", (unsigned long long)c->st_nd[i]);
    fprintf(stderr, "nodes by tricks left; %llu tricks completed\n", (unsigned long long)c->st_tricks);
    for (int a = 1; a >= 0; a--)
        for (int b = 1; b >= 0; b--)
            fprintf(stderr, "%s %s: cut@1 %llu cut@2 %llu cut@3 %llu cut@4+ %llu all %llu\n", a ? "lead" : "follow",
                    b ? "MAX" : "MIN", (unsigned long long)c->st_side[a][b][0], (unsigned long long)c->st_side[a][b][1],
                    (unsigned long long)c->st_side[a][b][2], (unsigned long long)c->st_side[a][b][3],
                    (unsigned long long)c->st_side[a][b][4]);
#endif
}

static PyObject *Solver_stats(SolverObject *self, PyObject *Py_UNUSED(ignored)) {
    PyObject *depth = PyList_New(MAXRANKS + 1);
    if (!depth) return NULL;
    for (int i = 0; i <= MAXRANKS; i++) PyList_SET_ITEM(depth, i, PyLong_FromUnsignedLongLong(self->st_depth[i]));
    return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:K,s:N}", "nodes", (unsigned long long)self->last_nodes,
                         "tricks", (unsigned long long)self->st[4],
                         "bound_cuts", (unsigned long long)self->st[0], "probes", (unsigned long long)self->st[1],
                         "hits", (unsigned long long)self->st[2], "stores_total", (unsigned long long)self->st[3],
                         "boundaries_by_tricks_left", depth);
}

static PyTypeObject SolverType;

static int parse_mask_seq(PyObject *obj, uint16_t out[NSUITS], const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != NSUITS) {
        PyErr_Format(PyExc_ValueError, "%s: expected 4 suit masks", what);
        Py_DECREF(seq);
        return -1;
    }
    for (int s = 0; s < NSUITS; s++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, s));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        if (v < 0 || v >= (1 << MAXRANKS)) {
            PyErr_Format(PyExc_ValueError, "%s: suit mask %ld out of range", what, v);
            Py_DECREF(seq);
            return -1;
        }
        out[s] = (uint16_t)v;
    }
    Py_DECREF(seq);
    return 0;
}

/* Fill a context from Python arguments; checks shapes, overlaps and sizes. */
static int setup_ctx(Ctx *c, int np, int rule, int trump, PyObject *hands, int leader, PyObject *played, int maxmask) {
    memset(c, 0, sizeof *c);
    memset(c->killer, NO_MOVE, sizeof c->killer);
    if (np != 3 && np != 4) { PyErr_SetString(PyExc_ValueError, "np must be 3 or 4"); return -1; }
    if (rule != RULE_FOLLOW && rule != RULE_ELYIGIT) { PyErr_SetString(PyExc_ValueError, "unknown rule"); return -1; }
    if (trump < -1 || trump > 3) { PyErr_SetString(PyExc_ValueError, "trump must be -1..3"); return -1; }
    if (leader < 0 || leader >= np) { PyErr_SetString(PyExc_ValueError, "leader out of range"); return -1; }
    if (maxmask <= 0 || maxmask >= (1 << np) - 1) { PyErr_SetString(PyExc_ValueError, "maxmask must name a proper side"); return -1; }
    c->np = np; c->rule = rule; c->trump = trump; c->leader = leader;
    for (int p = 0; p < np; p++) c->maxside[p] = (uint8_t)(maxmask >> p & 1);
    c->partnerships = np == 4 && (maxmask == 5 || maxmask == 10);
    c->bridge = c->partnerships && rule == RULE_FOLLOW;
    for (int i = 0; i < 2 * MAXP; i++) c->wrap[i] = (uint8_t)(i % np);
    PyObject *hs = PySequence_Fast(hands, "hands must be a sequence");
    if (!hs) return -1;
    if (PySequence_Fast_GET_SIZE(hs) != np) {
        PyErr_SetString(PyExc_ValueError, "one hand per player expected");
        Py_DECREF(hs);
        return -1;
    }
    for (int p = 0; p < np; p++) {
        if (parse_mask_seq(PySequence_Fast_GET_ITEM(hs, p), c->hand[p], "hand") < 0) { Py_DECREF(hs); return -1; }
        for (int s = 0; s < NSUITS; s++) {
            if (c->inplay[s] & c->hand[p][s]) {
                PyErr_SetString(PyExc_ValueError, "a card is in two hands");
                Py_DECREF(hs);
                return -1;
            }
            c->inplay[s] |= c->hand[p][s];
            c->lens += (uint64_t)popc(c->hand[p][s]) << (4 * (4 * p + s));
            for (int r = 0; r < 16; r++)
                if (c->hand[p][s] >> r & 1) c->owner[s][r] = (int8_t)p;
        }
    }
    Py_DECREF(hs);
    PyObject *ps = PySequence_Fast(played, "played must be a sequence");
    if (!ps) return -1;
    Py_ssize_t nplayed = PySequence_Fast_GET_SIZE(ps);
    if (nplayed >= np) { PyErr_SetString(PyExc_ValueError, "too many cards on the table"); Py_DECREF(ps); return -1; }
    for (Py_ssize_t i = 0; i < nplayed; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(ps, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(ps); return -1; }
        int s = (int)(v >> 4), r = (int)(v & 15);
        if (v < 0 || s >= NSUITS || r >= MAXRANKS) { PyErr_SetString(PyExc_ValueError, "bad card code"); Py_DECREF(ps); return -1; }
        if ((c->inplay[s] | c->tmask[s]) >> r & 1) { PyErr_SetString(PyExc_ValueError, "a played card is also in a hand"); Py_DECREF(ps); return -1; }
        put_card(c, (int)i, (int)v);
    }
    Py_DECREF(ps);
    c->ntable = (int)nplayed;
    int size0 = -1;
    for (int k = 0; k < np; k++) {
        int p = seat_at(c, k);
        int n = 0;
        for (int s = 0; s < NSUITS; s++) n += popc(c->hand[p][s]);
        if (k >= c->ntable) n -= 1; /* still to play to the current trick */
        if (size0 < 0) size0 = n;
        else if (n != size0) { PyErr_SetString(PyExc_ValueError, "hands of unequal size"); return -1; }
    }
    c->tricks_left = size0 + 1;
    if (c->tricks_left < 1) {
        PyErr_SetString(PyExc_ValueError, "no cards to play");
        return -1;
    }
    if (c->tricks_left > MAXRANKS) { PyErr_SetString(PyExc_ValueError, "at most 13 cards a hand"); return -1; }
    return 0;
}

static void attach(SolverObject *self, Ctx *c, int maxmask) {
    c->tt = &self->tt;
    c->use_partition = self->use_partition;
    c->use_tt = self->use_tt;
    c->use_bounds = self->use_bounds;
    /* The mid-trick cutoff, at every place after the lead (bits 1 to 3) where it pays.  In the
     * other forms it saves 5 to 16% of the nodes.  In bridge card play (two partnerships
     * following suit) with trumps it saves under 1% of the nodes (the sure tricks at the next
     * trick's start find the same tricks) but costs 7% of the time; without trumps, at second
     * hand alone (as DDS's quick tricks of the second hand), it saves 8 to 13% of the nodes
     * (the winner then cashes its other top cards), and later in the trick little more. */
    const int bridge = c->partnerships && c->rule == RULE_FOLLOW;
    c->use_trick_cut = !c->use_bounds ? 0 : !bridge ? 0xE : c->trump < 0 ? 0x2 : 0;
    uint16_t cards[NSUITS];
    int subset = 1;
    for (int s = 0; s < NSUITS; s++) {
        cards[s] = c->inplay[s] | c->tmask[s];
        if (cards[s] & ~self->deal_cards[s]) subset = 0;
    }
    if (!subset || c->np != self->last_np || c->rule != self->last_rule || c->trump != self->last_trump ||
        maxmask != self->last_maxmask) {
        tt_clear(&self->tt);
        memcpy(self->deal_cards, cards, sizeof cards);
        self->last_np = c->np; self->last_rule = c->rule; self->last_trump = c->trump; self->last_maxmask = maxmask;
    }
}

static int acquire(SolverObject *self) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Solver is already solving in another thread; give each thread its own Solver");
        return -1;
    }
    if (!self->tt.b && tt_alloc(&self->tt, self->bytes) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    self->busy = 1;
    return 0;
}

/* What solve and score share: read the position (and the optional value named last in kwlist), set up the
 * search, take the Solver and its table.  On success the Solver is busy: the caller searches, then frees it. */
static int begin_search(SolverObject *self, PyObject *args, PyObject *kw, char **kwlist, Ctx *c, int *extra) {
    int np, rule, trump, leader, maxmask;
    unsigned long long max_nodes = 0;
    PyObject *hands, *played;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iiiOiOi|iK", kwlist, &np, &rule, &trump, &hands, &leader, &played, &maxmask,
                                     extra, &max_nodes))
        return -1;
    if (setup_ctx(c, np, rule, trump, hands, leader, played, maxmask) < 0) return -1;
    c->node_limit = max_nodes ? max_nodes : UINT64_MAX; /* one comparison a node */
    if (acquire(self) < 0) return -1;
    attach(self, c, maxmask);
    return 0;
}

static PyObject *Solver_solve(SolverObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"np", "rule", "trump", "hands", "leader", "played", "maxmask", "guess", "max_nodes", NULL};
    int guess = -1;
    Ctx c;
    if (begin_search(self, args, kw, kwlist, &c, &guess) < 0) return NULL;
    int value;
    Py_BEGIN_ALLOW_THREADS
    value = solve_value(&c, guess);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    keep_stats(self, &c);
    return Py_BuildValue("(iK)", value, (unsigned long long)c.nodes); /* -1: gave up at the node limit */
}

/* value of every legal card of the player to move: list of (card code, MAX tricks) */
static PyObject *Solver_score(SolverObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"np", "rule", "trump", "hands", "leader", "played", "maxmask", "value", "max_nodes", NULL};
    int known = -1;
    Ctx c;
    if (begin_search(self, args, kw, kwlist, &c, &known) < 0) return NULL;
    Move mv[MAXMOVES];
    int values[MAXMOVES];
    int nm;
    Py_BEGIN_ALLOW_THREADS
    nm = score_moves(&c, known, mv, values);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    keep_stats(self, &c);
    if (c.aborted) return Py_BuildValue("(OK)", Py_None, (unsigned long long)c.nodes); /* gave up */
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int i = 0; i < nm; i++) {
        int s = mv[i].card >> 4;
        uint32_t run = mv[i].run;
        while (run) {
            int r = topbit(run);
            run &= ~(1u << r);
            PyObject *item = Py_BuildValue("(ii)", s << 4 | r, values[i]);
            if (!item || PyList_Append(out, item) < 0) { Py_XDECREF(item); Py_DECREF(out); return NULL; }
            Py_DECREF(item);
        }
    }
    PyObject *res = Py_BuildValue("(NK)", out, (unsigned long long)c.nodes);
    return res;
}

static PyObject *Solver_clear(SolverObject *self, PyObject *Py_UNUSED(ignored)) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "cannot clear a Solver while it is solving");
        return NULL;
    }
    if (self->tt.b) tt_clear(&self->tt);
    memset(self->deal_cards, 0, sizeof self->deal_cards);
    Py_RETURN_NONE;
}

static PyObject *Solver_info(SolverObject *self, PyObject *Py_UNUSED(ignored)) {
    size_t entries = 0;
    const TT *t = &self->tt;
    if (t->b) { /* only the active part can hold entries of this generation */
        for (size_t i = 0; i < t->active; i++)
            if (t->b[i].gen == t->gen) entries += t->b[i].n;
    }
    size_t alloc = t->b ? t->nbuckets * sizeof(TTBucket) : 0;
    return Py_BuildValue("{s:n,s:n,s:n,s:n,s:n,s:n,s:K,s:K,s:K,s:K}", "limit_bytes", (Py_ssize_t)self->bytes,
                         "active_bytes", (Py_ssize_t)(t->b ? t->active * sizeof(TTBucket) : 0),
                         "table_bytes", (Py_ssize_t)alloc, "buckets", (Py_ssize_t)(t->b ? t->nbuckets : 0),
                         "buckets_used", (Py_ssize_t)(t->b ? t->used : 0), "entries", (Py_ssize_t)entries,
                         "last_nodes", (unsigned long long)self->last_nodes, "last_tricks", (unsigned long long)self->st[4],
                         "total_nodes", (unsigned long long)self->total_nodes,
                         "replaced_buckets", (unsigned long long)t->replaced_buckets);
}

static int Solver_init(SolverObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"table_bytes", "partition", "table", "bounds", NULL};
    Py_ssize_t bytes = 64 * 1024 * 1024;
    int partition = 1, table = 1, bounds = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|nppp", kwlist, &bytes, &partition, &table, &bounds)) return -1;
    if (bytes < 4096) {
        PyErr_SetString(PyExc_ValueError, "table_bytes must be at least 4096");
        return -1;
    }
    tt_free(&self->tt);
    self->bytes = (size_t)bytes;
    self->use_partition = partition;
    self->use_tt = table;
    self->use_bounds = bounds;
    self->busy = 0;
    self->last_np = -1;
    memset(self->deal_cards, 0, sizeof self->deal_cards);
    return 0;
}

static void Solver_dealloc(SolverObject *self) {
    tt_free(&self->tt);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Solver_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Solver_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(np, rule, trump, hands, leader, played, maxmask, guess=-1) -> (MAX tricks, nodes)"},
    {"score", (PyCFunction)(void (*)(void))Solver_score, METH_VARARGS | METH_KEYWORDS,
     "score(np, rule, trump, hands, leader, played, maxmask, value=-1) -> ([(card, MAX tricks)], nodes)"},
    {"clear", (PyCFunction)Solver_clear, METH_NOARGS, "empty the transposition table"},
    {"info", (PyCFunction)Solver_info, METH_NOARGS, "table size and use, node counts"},
    {"stats", (PyCFunction)Solver_stats, METH_NOARGS, "search counters of the last call"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nines.solver._core.Solver",
    .tp_basicsize = sizeof(SolverObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A solver with its own transposition table (one per thread).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
};

/* legal cards (codes) of the player to move; for tests against the Python rules */
static PyObject *core_legal(PyObject *mod, PyObject *args) {
    int rule, trump;
    PyObject *hand, *table;
    (void)mod;
    if (!PyArg_ParseTuple(args, "iiOO", &rule, &trump, &hand, &table)) return NULL;
    Ctx c;
    memset(&c, 0, sizeof c);
    c.np = 4; c.rule = rule; c.trump = trump;
    if (parse_mask_seq(hand, c.hand[0], "hand") < 0) return NULL;
    PyObject *ts = PySequence_Fast(table, "table must be a sequence");
    if (!ts) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(ts);
    if (n > 3) { Py_DECREF(ts); PyErr_SetString(PyExc_ValueError, "at most 3 cards on the table"); return NULL; }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(ts, i));
        if ((v == -1 && PyErr_Occurred()) || v < 0 || (v >> 4) >= NSUITS || (v & 15) >= MAXRANKS) {
            Py_DECREF(ts);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad card code");
            return NULL;
        }
        c.tcard[i] = (uint8_t)v;
        c.tmask[v >> 4] |= (uint16_t)(1u << (v & 15));
    }
    Py_DECREF(ts);
    c.ntable = (int)n;
    uint16_t legal[NSUITS], lrel[NSUITS];
    gen_legal(&c, 0, legal, lrel);
    PyObject *out = PyList_New(0);
    for (int s = 0; s < NSUITS && out; s++) {
        for (int r = 0; r < MAXRANKS; r++) {
            if (!(legal[s] >> r & 1)) continue;
            PyObject *v = PyLong_FromLong(s << 4 | r);
            if (!v || PyList_Append(out, v) < 0) { Py_XDECREF(v); Py_DECREF(out); return NULL; }
            Py_DECREF(v);
        }
    }
    return out;
}

static PyMethodDef core_methods[] = {
    {"legal", core_legal, METH_VARARGS, "legal(rule, trump, hand_masks, table_codes) -> [codes]"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_core",
    .m_doc = "Compiled core of the Nines exact solvers.",
    .m_size = -1,
    .m_methods = core_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    init_tables();
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "RULE_FOLLOW", RULE_FOLLOW);
    PyModule_AddIntConstant(m, "RULE_ELYIGIT", RULE_ELYIGIT);
    PyModule_AddIntConstant(m, "ENTRY_BYTES", (long)sizeof(TTEntry));
    PyModule_AddIntConstant(m, "BUCKET_BYTES", (long)sizeof(TTBucket));
    return m;
}
