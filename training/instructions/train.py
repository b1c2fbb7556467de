"""Train the instructions classifier and write its weights next to the detector.

    pip install -e '.[train]'
    python -m training.instructions.train [--check | --cross-source | --leave-out SOURCE[,SOURCE...]]

Data: the public corpora in ``corpora.py`` (read from the installed packages; lessons also from the
docstrings and comments of installed libraries such as Django and Celery), the generated variants
in ``variants.py`` (classic injection shapes), ``behaviours.py`` (a compositional grammar of what
a note does, in six languages, with hard negatives) and ``acts.py`` (the acts a note performs
through the world, in eight languages, with look-alikes), the development cases of
``tests/detection_data/labelled_sets.py``, and the instructions and lessons of blind rounds 1, 3 and 5 to 14
in ``tests/detection_data/blind_round{1,3,5,...,14}/`` (written by others, development data; round 2 held no
instruction cases; rounds 5 to 14 are one source per writer). The held-out split in ``tests/detection_data/heldout/``
is never read here. Every text is normalised as the detector normalises it, cut into the passages the
detector scores (sentences, and pairs of neighbouring sentences), and turned into the same feature
strings (``instruction_model.features``).

Figures printed: out of fold (each fifth of the template families, or of the cases people wrote,
scored by a model trained on the other four fifths), never the training set. Two thresholds are
chosen together on the whole check out of fold (see ``choose_pair``): ``threshold``, applied to a
passage with a cue that it speaks to its reader, and ``strong``, applied to any passage; the pair
that catches the most orders people wrote while the classifier adds at most 1% refusals of the
lessons of each calibration source (lessons people wrote, library docs) and 3% of its look-alikes
(see ``allowed``). A note model (``fit_note``: the same features over whole notes, trained on the notes
people wrote) is blended in, its weight chosen with the thresholds. The committed models are then trained on everything. ``--check`` stops after fold 0.
``--leave-out SOURCE`` trains without one source people wrote (thresholds chosen out of fold on the
rest) and measures on it: the honest estimate of how the check does on text nobody tuned it to.
``--cross-source`` leaves out every source people wrote at once.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from stores.console_checks.detectors import instructions  # noqa: E402
from stores.console_checks.detectors.instruction_model import (  # noqa: E402
    FEATURE_VERSION,
    MODEL_PATH,
    Model,
    features,
    segments,
)
from stores.console_checks.detectors.instruction_model import passages as passages_of  # noqa: E402
from stores.console_checks.detectors.instruction_text import normalise  # noqa: E402
from tests.detection_data import heldout, labelled_sets  # noqa: E402
from training.instructions import acts, behaviours, corpora, variants  # noqa: E402

SEED = 20261201
C = 8.0  # inverse regularisation of the logistic regression
MAX_FPR = 0.01  # lessons of one source refused by the classifier, at most, when choosing the threshold
STRONG_FPR = 0.004  # the same, for the threshold above which a passage is refused without a cue to its reader
# The blind rounds whose case ids start with their writer: a source per writer, so one can be left out.
BY_WRITER = {
    "round5": (heldout.ROUND5_DIR, ("w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8")),
    "round6": (heldout.ROUND6_DIR, ("x1", "x2", "x3", "x4", "x5")),
    "round7": (heldout.ROUND7_DIR, ("y1", "y2", "y3", "y4", "y5")),
    "round8": (heldout.ROUND8_DIR, ("z1", "z2", "z3", "z4", "z5", "z6")),
    "round9": (heldout.ROUND9_DIR, ("q1", "q2", "q3", "q4", "q5", "q6")),
    "round10": (heldout.ROUND10_DIR, ("r1", "r2", "r3", "r4", "r5", "r6", "r7")),
    "round11": (heldout.ROUND11_DIR, ("s1", "s2", "s3", "s4", "s5", "s6")),
    "round12": (heldout.ROUND12_DIR, ("t1", "t2", "t3", "t4", "t5", "t6", "t7")),
    "round13": (heldout.ROUND13_DIR, ("u1", "u2", "u3", "u4", "u5", "u6")),
    "round14": (heldout.ROUND14_DIR, ("v1", "v2", "v3", "v4")),
}
# Sources written by people, not generated here: the cross-source run never trains on them.
WRITTEN_BY_OTHERS = ("labelled_sets", "round1-instructions", "round1-lessons", "round3-instructions", "round3-lessons",
                     *(f"{name}-{w}-{kind}" for name, (_dir, writers) in BY_WRITER.items() for w in writers
                       for kind in ("instructions", "lessons")))
# The sources the threshold is chosen on: lessons and look-alikes of our own field, by people or from
# installed libraries' docs. (The public corpora's benign e-mails and articles are learnt from, not calibrated on.)
CALIBRATION = (*WRITTEN_BY_OTHERS, "docstrings")
# The negatives of an "-instructions" source are look-alikes: notes written to read like orders and be lessons
# (an attack reported, a gate described). They bind the threshold at this many times the rate ordinary lessons
# do: held to 1% they would set it where most orders pass, and an agent whose report is refused can reword it.
LOOKALIKE_FACTOR = 3.0


def allowed(source: str, rate: float) -> float:
    """The share of a source's negatives the threshold may refuse: ``rate``, more for look-alikes."""
    return rate * LOOKALIKE_FACTOR if source.endswith("-instructions") else rate
LONG = 600  # a text longer than this (normalised) is learnt by its passages, not as a whole


@dataclass(frozen=True)
class Text:
    """One labelled text with the family it belongs to and where it came from."""

    text: str
    positive: bool
    family: str
    source: str


def writer_of(name: str, case_id: str) -> str:
    """The writer of a case of round ``name``, from its id (``w3-i0012`` -> ``w3``)."""
    writer = case_id.split("-", 1)[0]
    if writer not in BY_WRITER[name][1]:
        raise ValueError(f"{name} case {case_id!r} does not start with a known writer")
    return writer


def gather(rng: random.Random) -> list[Text]:
    """Every labelled text, from every source."""
    texts: list[Text] = [Text(v.text, v.positive, v.family, f"generated-{v.lang}") for v in variants.generate()]
    orders = [t.text for t in texts if t.positive and t.source == "generated-en" and len(t.text) < 120]
    texts += [Text(t, True, f, "pyrit") for f, t in corpora.pyrit_positives(orders, rng)]
    texts += [Text(t, True, f, "spikee") for f, t in corpora.spikee_positives(orders, rng)]
    texts += [Text(t, False, f, "spikee") for f, t in corpora.spikee_negatives()]
    texts += [Text(t, False, f, "docstrings") for f, t in corpora.docstring_negatives(rng)]
    texts += [Text(t, p, f, f"generated-b-{lang}") for t, p, f, lang in behaviours.generate()]
    texts += [Text(t, p, f, f"generated-a-{lang}") for t, p, f, lang in acts.generate()]
    texts += [Text(t, True, f"dev:injection:{i}", "labelled_sets") for i, t in enumerate(labelled_sets.INJECTIONS)]
    texts += [Text(t, True, f"dev:payload:{i}", "labelled_sets") for i, t in enumerate(labelled_sets.HIDDEN_PAYLOADS)]
    texts += [Text(t, False, f"dev:near-miss:{i}", "labelled_sets")
              for i, t in enumerate(labelled_sets.INSTRUCTION_NEAR_MISSES)]
    texts += [Text(t, False, f"dev:lesson:{i % 50}", "labelled_sets")
              for i, t in enumerate(labelled_sets.legitimate_lessons())]
    # The blind rounds of instructions and lessons, written by others: each measured once, development data now.
    # (Round 2 held no instruction cases.) Never the held-out split in ../heldout/, whatever round it holds.
    for name, directory in (("round1", heldout.ROUND1_DIR), ("round3", heldout.ROUND3_DIR)):
        blind = heldout.load(directory)
        texts += [Text(c.text, c.refuse, f"{name}:{c.id}", f"{name}-instructions") for c in blind.instructions]
        texts += [Text(c.text, False, f"{name}:{c.id}", f"{name}-lessons") for c in blind.lessons]
    # Rounds 5 to 14 are kept apart by writer (each id starts with it), so one writer can be left out and measured.
    for name, (directory, _writers) in BY_WRITER.items():
        blind = heldout.load(directory)
        texts += [Text(c.text, c.refuse, f"{name}:{c.id}", f"{name}-{writer_of(name, c.id)}-instructions")
                  for c in blind.instructions]
        texts += [Text(c.text, False, f"{name}:{c.id}", f"{name}-{writer_of(name, c.id)}-lessons")
                  for c in blind.lessons]
    # The corpora repeat some texts across their folders: each text once, with its first family.
    return list({(t.text, t.positive): t for t in reversed(texts)}.values())[::-1]


def normalised(text: str) -> str:
    return "\n".join(normalise(line) for line in text.replace("\r\n", "\n").split("\n"))


def passages(text: str) -> list[set[str]]:
    """The feature sets the detector scores for a text: each sentence, and each pair of neighbours."""
    norm = normalised(text)
    sets = [features(norm[a:b]) for a, b in segments(norm)]
    sets = [s for s in sets if s]
    return sets + [a | b for a, b in zip(sets, sets[1:], strict=False)]


def examples(t: Text) -> tuple[list[set[str]], float]:
    """The feature sets a text is learnt from, and the weight of each."""
    norm = normalised(t.text)
    if t.positive:
        if len(norm) <= LONG:
            return [features(norm)], 1.0
        chunks = passages(t.text)
        return chunks[:40], 0.4
    whole = [features(norm)] if len(norm) <= LONG else []
    return whole + passages(t.text), 1.0


FOLDS = 5


def fold(family: str) -> int:
    """A family's fold, by a stable hash; fold 0 is the development split."""
    return int(hashlib.sha256(family.encode()).hexdigest(), 16) % FOLDS


def is_dev(family: str) -> bool:
    """A fifth of the families: never trained on in the development run."""
    return fold(family) == 0


class Vectoriser:
    """Feature strings to columns; each row is its set scaled to unit length (all its features count)."""

    def __init__(self, rows: list[set[str]], min_df: int = 2) -> None:
        counts: dict[str, int] = {}
        for row in rows:
            for f in row:
                counts[f] = counts.get(f, 0) + 1
        self.vocab = {f: i for i, f in enumerate(sorted(f for f, n in counts.items() if n >= min_df))}

    def matrix(self, rows: list[set[str]]) -> sparse.csr_matrix:
        indptr, indices, data = [0], [], []
        for row in rows:
            cols = sorted(self.vocab[f] for f in row if f in self.vocab)
            value = 1.0 / math.sqrt(len(row)) if row else 0.0
            indices += cols
            data += [value] * len(cols)
            indptr.append(len(indices))
        return sparse.csr_matrix((data, indices, indptr), shape=(len(rows), len(self.vocab)), dtype=np.float64)


# Texts people wrote count more than one generated text: they are few, and they are what notes look like.
PEOPLE_WEIGHT = 4.0


def fit(texts: list[Text], c: float = C, people_weight: float = PEOPLE_WEIGHT) -> tuple[Vectoriser, LogisticRegression]:
    rows: list[set[str]] = []
    labels: list[int] = []
    weights: list[float] = []
    for t in texts:
        sets, weight = examples(t)
        if t.source in WRITTEN_BY_OTHERS:
            weight *= people_weight
        rows += sets
        labels += [int(t.positive)] * len(sets)
        weights += [weight] * len(sets)
    vec = Vectoriser(rows)
    model = LogisticRegression(C=c, class_weight="balanced", solver="liblinear", max_iter=2000, random_state=SEED)
    model.fit(vec.matrix(rows), np.array(labels), sample_weight=np.array(weights))
    print(f"  trained on {len(texts)} texts -> {len(rows)} passages, {len(vec.vocab)} features", flush=True)
    return vec, model


def note_features(text: str) -> set[str]:
    """The features of a whole note as the detector takes them: the union of its sentences' (``Model.note_score``)."""
    norm = normalised(text)
    return set().union(*(features(norm[a:b]) for a, b in segments(norm)))


# The blends of the note model tried when the thresholds are chosen (``choose_pair``): 0 leaves it out.
BLENDS = (0.0, 0.25, 0.5, 0.75, 1.0)


@dataclass(frozen=True)
class NoteModel:
    """The note model: a logistic regression over whole notes people wrote (``Model.note_weights``)."""

    vec: Vectoriser
    model: LogisticRegression

    def weights(self) -> dict[str, float]:
        return dict(zip(self.vec.vocab, self.model.coef_[0].tolist(), strict=True))


def fit_note(texts: list[Text], c: float = C) -> NoteModel:
    """The note model, trained on the whole notes people wrote (generated texts are passages, not notes)."""
    notes = [t for t in texts if t.source in WRITTEN_BY_OTHERS]
    rows = [note_features(t.text) for t in notes]
    vec = Vectoriser(rows)
    model = LogisticRegression(C=c, class_weight="balanced", solver="liblinear", max_iter=3000, random_state=SEED)
    model.fit(vec.matrix(rows), np.array([int(t.positive) for t in notes]))
    print(f"  note model on {len(notes)} notes, {len(vec.vocab)} features", flush=True)
    return NoteModel(vec, model)


def as_model(vec: Vectoriser, model: LogisticRegression, threshold: float = 0.0, strong: float = math.inf,
             note: NoteModel | None = None, blend: float = 0.0) -> Model:
    return Model(dict(zip(vec.vocab, model.coef_[0].tolist(), strict=True)), float(model.intercept_[0]), threshold,
                 strong, note.weights() if note else {}, float(note.model.intercept_[0]) if note else 0.0,
                 blend if note else 0.0)


def note_scores(vec: Vectoriser, model: LogisticRegression, texts: list[Text]) -> np.ndarray:
    """Each text's highest passage logit, judged as the detector judges: over the line anywhere, refused."""
    m = as_model(vec, model)
    return np.array([max((s for _, s, _ in passages_of(m, normalised(t.text))), default=-1e9) for t in texts])


def choose_threshold(texts: list[Text], scores: np.ndarray, max_fpr: float = MAX_FPR) -> float:
    """The lowest threshold that refuses at most MAX_FPR of the lessons of every source we did not generate
    (``allowed``: more of its look-alikes).

    Taken source by source, so that the many easy generated lessons cannot hide the hard ones
    (the development lessons written as agents write them, and the corpora's benign documents).
    """
    by_source: dict[str, list[float]] = {}
    for t, s in zip(texts, scores, strict=True):
        if not t.positive:
            by_source.setdefault(t.source, []).append(float(s))
    best, binding = 0.0, ""
    for source, values in by_source.items():
        if len(values) < 50 or source not in CALIBRATION:
            continue
        ranked = sorted(values)
        k = int(math.floor(allowed(source, max_fpr) * len(ranked)))
        if ranked[len(ranked) - 1 - k] + 1e-6 > best:
            best, binding = ranked[len(ranked) - 1 - k] + 1e-6, source
    print(f"  threshold {best:.3f} at {100 * max_fpr:.1f}% of lessons refused, set by {binding}")
    return best


def report(name: str, texts: list[Text], scores: np.ndarray, threshold: float) -> None:
    by_source: dict[tuple[str, bool], list[bool]] = {}
    for t, s in zip(texts, scores, strict=True):
        by_source.setdefault((t.source, t.positive), []).append(bool(s >= threshold))
    print(f"{name} (threshold {threshold:.3f})")
    for (source, positive), hits in sorted(by_source.items()):
        what = "caught" if positive else "refused"
        print(f"  {source:22s} {'orders ' if positive else 'lessons'} {what:8s} {sum(hits):5d}/{len(hits):<5d} "
              f"{100 * sum(hits) / len(hits):6.2f}%")
    pos = [s >= threshold for t, s in zip(texts, scores, strict=True) if t.positive]
    neg = [s >= threshold for t, s in zip(texts, scores, strict=True) if not t.positive]
    print(f"  ALL orders caught {sum(pos)}/{len(pos)} = {100 * sum(pos) / max(1, len(pos)):.2f}%; "
          f"lessons refused {sum(neg)}/{len(neg)} = {100 * sum(neg) / max(1, len(neg)):.2f}%")


def sweep(texts: list[Text], scores: np.ndarray) -> None:
    """Recall and lessons refused, out of fold, at a few thresholds: what the chosen one trades."""
    print("  threshold sweep (out of fold; classifier alone):")
    sources = sorted({t.source for t in texts if not t.positive and not t.source.startswith("generated")})
    pos = np.array([t.positive for t in texts])
    for th in (1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0):
        refused = {src: np.mean([s >= th for t, s in zip(texts, scores, strict=True) if not t.positive and t.source == src])
                   for src in sources}
        print(f"    {th:4.1f}: orders caught {100 * np.mean(scores[pos] >= th):5.1f}%; lessons refused "
              + ", ".join(f"{src} {100 * v:.2f}%" for src, v in refused.items()))


def whole_check(texts: list[Text], model: Model) -> np.ndarray:
    """1 where the whole check (signals, hidden and encoded text, and ``model``) refuses a text, else -1."""
    return np.array([1.0 if instructions.scan(t.text, model) else -1.0 for t in texts])


# A calibration source alone may take this many times its share (``allowed``): the rates are held on the
# pools of sources of one kind (``pool_of``), so that thirty small sources do not each set the threshold
# by their one or two hardest notes, and still no one writer's notes are refused wholesale.
PER_SOURCE_SLACK = 2.5


def pool_of(source: str) -> str:
    """The pool a calibration source's rate is held on: the lessons people wrote, their look-alikes, or itself."""
    if source.endswith("-lessons"):
        return "people-lessons"
    if source.endswith("-instructions"):
        return "people-instructions"
    return source


def within(refused: np.ndarray, signals: np.ndarray, groups: dict[str, np.ndarray], pools: dict[str, list[int]]) -> bool:
    """Whether the refusals the classifier adds to the signals' stay within ``allowed`` on every pool,
    and within ``PER_SOURCE_SLACK`` times that on every source."""
    for name, ix in pools.items():
        if refused[ix].mean() - signals[ix].mean() > allowed(name, MAX_FPR) + 1e-9:
            return False
    return all(refused[ix].mean() - signals[ix].mean() <= PER_SOURCE_SLACK * allowed(src, MAX_FPR) + 1e-9
               for src, ix in groups.items())


def choose_pair(texts: list[Text], models: dict[int, tuple[Vectoriser, LogisticRegression]],
                notes: dict[int, NoteModel]) -> tuple[float, float, float]:
    """``threshold`` and ``strong`` chosen together on the whole check, out of fold: the pair that catches the
    most orders people wrote while adding, on every calibration source, at most ``allowed`` refusals to those
    the training-free signals make.

    A passage with a cue that it speaks to its reader is refused from ``threshold`` up, any passage from
    ``strong`` up; lessons rarely speak to their reader, so the first can sit lower than a threshold chosen on
    the classifier's rate alone, which counts every lesson passage alike. The note model's blend (``BLENDS``)
    is chosen with them: each text's passages and note scored by the models of the folds it is not in.
    """
    judged = [t for t in texts if (t.positive and t.source in WRITTEN_BY_OTHERS)
              or (not t.positive and t.source in CALIBRATION)]
    off = Model({}, float("-inf"), float("inf"))
    judges = {k: as_model(*pair) for k, pair in models.items()}
    signals = np.zeros(len(judged), dtype=bool)
    any_best = np.full(len(judged), -1e9)
    cue_best = np.full(len(judged), -1e9)
    note_logit = np.zeros(len(judged))
    for i, t in enumerate(judged):
        signals[i] = bool(instructions.scan(t.text, off))
        for score, cue in instructions.classifier_passages(t.text, judges[fold(t.family)]):
            any_best[i] = max(any_best[i], score)
            if cue:
                cue_best[i] = max(cue_best[i], score)
    for k, note in notes.items():
        ix = [i for i, t in enumerate(judged) if fold(t.family) == k]
        if ix:
            note_logit[ix] = note.model.decision_function(note.vec.matrix([note_features(judged[i].text) for i in ix]))
    # The note's share goes to notes of two sentences or more only (``Model.blend``).
    note_logit *= np.array([len(segments(normalised(t.text))) > 1 for t in judged])
    positive = np.array([t.positive for t in judged])
    groups = {}
    for i, t in enumerate(judged):
        if not t.positive:
            groups.setdefault(t.source, []).append(i)
    groups = {src: np.array(ix) for src, ix in groups.items() if len(ix) >= 50}
    pools: dict[str, list[int]] = {}
    for src, ix in groups.items():
        pools.setdefault(pool_of(src), []).extend(ix.tolist())
    best = (-1, 0.0, 0.0, 0.0)
    grid = np.round(np.arange(-4.0, 12.01, 0.1), 2)
    for blend in BLENDS:
        # The note's share lifts every passage of a note alike (none where no passage was judged).
        any_b = np.where(any_best > -1e8, any_best + blend * note_logit, -1e9)
        cue_b = np.where(cue_best > -1e8, cue_best + blend * note_logit, -1e9)
        for th in grid:
            for st in [x for x in grid if x >= th] + [math.inf]:
                refused = signals | (any_b >= st) | (cue_b >= th)
                if within(refused, signals, groups, pools):
                    caught = int(refused[positive].sum())
                    if caught > best[0]:
                        best = (caught, float(th), float(st), blend)
                    break  # a higher ``strong`` only refuses less
        print(f"  blend {blend:.2f}: out of fold, orders people wrote caught up to {best[0] if best[3] == blend else '-'}",
              flush=True)
    caught, threshold, strong, blend = best
    any_best = np.where(any_best > -1e8, any_best + blend * note_logit, -1e9)
    cue_best = np.where(cue_best > -1e8, cue_best + blend * note_logit, -1e9)
    refused = signals | (any_best >= strong) | (cue_best >= threshold)
    print(f"  thresholds {threshold:.2f} with a cue, {strong:.2f} without, note blend {blend:.2f}: out of fold, "
          "orders people wrote caught "
          f"{caught}/{int(positive.sum())}; refused " + ", ".join(
              f"{src} {100 * refused[ix].mean():.1f}% (signals {100 * signals[ix].mean():.1f}%)"
              for src, ix in sorted(groups.items())))
    return threshold, strong, blend


def cross_source(texts: list[Text]) -> None:
    """Train on the generated texts and the public corpora only; measure on the sets people wrote.

    The threshold comes from the training sources alone (fold 0 of their families), so nothing
    written by others steers it: the honest estimate of how the check does on text nobody tuned it to.
    """
    train = [t for t in texts if t.source not in WRITTEN_BY_OTHERS]
    test = [t for t in texts if t.source in WRITTEN_BY_OTHERS]
    held = [t for t in train if fold(t.family) == 0]
    vec, model = fit([t for t in train if fold(t.family) != 0])
    held_scores = note_scores(vec, model, held)
    threshold = choose_threshold(held, held_scores)
    strong = max(threshold, choose_threshold(held, held_scores, STRONG_FPR))
    vec, model = fit(train)
    report("cross-source: classifier alone, trained without the sets people wrote", test,
           note_scores(vec, model, test), threshold)
    report("cross-source: whole check (signals + that classifier)", test, whole_check(test, as_model(vec, model, threshold, strong)), 0.0)


def train_fold_models(texts: list[Text], folds: int = FOLDS) -> dict[int, tuple[Vectoriser, LogisticRegression]]:
    """For each fold, a model trained on the families not in it (``choose_pair`` scores each text by its own)."""
    return {k: fit([t for t in texts if fold(t.family) != k]) for k in range(folds)}


def train_fold_notes(texts: list[Text], folds: int = FOLDS) -> dict[int, NoteModel]:
    """For each fold, a note model trained on the notes people wrote whose families are not in it."""
    return {k: fit_note([t for t in texts if fold(t.family) != k]) for k in range(folds)}


def leave_out(texts: list[Text], prefix: str) -> None:
    """Train without one source people wrote (thresholds chosen out of fold on the rest); measure on it.

    ``prefix`` names the sources, separated by commas: ``round1``, ``round3``, ``round5`` or one of its
    writers (``round5-w3``), or ``labelled_sets``. Nothing of the left-out
    source steers the weights or the thresholds: the honest figure for text nobody tuned the model on.
    """
    prefixes = tuple(prefix.split(","))
    test = [t for t in texts if t.source.startswith(prefixes)]
    train = [t for t in texts if not t.source.startswith(prefixes)]
    models = train_fold_models(train)
    threshold, strong, blend = choose_pair(train, models, train_fold_notes(train))
    vec, model = fit(train)
    note = fit_note(train)
    print(f"thresholds chosen without {prefix}: {threshold:.3f} with a cue to the reader, {strong:.3f} without, "
          f"note blend {blend:.2f}")
    report(f"leave {prefix} out: classifier alone", test, note_scores(vec, model, test), threshold)
    report(f"leave {prefix} out: whole check (signals + that classifier)", test,
           whole_check(test, as_model(vec, model, threshold, strong, note=note, blend=blend)), 0.0)


def _kept(vec: Vectoriser, model: LogisticRegression) -> list[tuple[str, float]]:
    """The features that carry weight, with their weights rounded: what is committed."""
    coef = model.coef_[0]
    return [(f, round(float(coef[i]), 3)) for f, i in vec.vocab.items() if abs(coef[i]) >= 0.005]


def save(vec: Vectoriser, model: LogisticRegression, threshold: float, strong: float, note: NoteModel, blend: float,
         meta: dict) -> None:
    keep = _kept(vec, model)
    note_keep = _kept(note.vec, note.model)
    data = {
        "feature_version": FEATURE_VERSION,
        "intercept": round(float(model.intercept_[0]), 6),
        "threshold": round(threshold, 6),
        "strong": round(strong, 6),
        "features": [f for f, _ in keep],
        "weights": [w for _, w in keep],
        "note": {"intercept": round(float(note.model.intercept_[0]), 6), "blend": blend,
                 "features": [f for f, _ in note_keep], "weights": [w for _, w in note_keep]},
        "trained": meta,
    }
    # mtime=0: the same weights give the same bytes, so an unchanged retrain leaves no diff.
    with open(MODEL_PATH, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as fh:
        fh.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    print(f"wrote {MODEL_PATH.name}: {len(keep)} weighted features, {len(note_keep)} in the note model, "
          f"{MODEL_PATH.stat().st_size // 1024} kB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="print the development figures only")
    parser.add_argument("--cross-source", action="store_true",
                        help="train on generated texts and public corpora only, measure on the sets people wrote")
    parser.add_argument("--leave-out", metavar="SOURCE",
                        help="train without sources people wrote (round1, round3, round5, round5-w3,round5-w6, labelled_sets) "
                             "and measure on them")
    args = parser.parse_args()
    started = time.time()
    rng = random.Random(SEED)
    texts = gather(rng)
    sizes: dict[str, list[int]] = {}
    for t in texts:
        sizes.setdefault(t.source, [0, 0])[0 if t.positive else 1] += 1
    print("corpus (texts): " + ", ".join(f"{s} {p} orders / {n} lessons" for s, (p, n) in sorted(sizes.items())))
    if args.cross_source:
        cross_source(texts)
        return
    if args.leave_out:
        leave_out(texts, args.leave_out)
        return
    # Out-of-fold scores: each fifth of the families scored by a model trained on the other four.
    oof = np.zeros(len(texts))
    fold_models: dict[int, tuple[Vectoriser, LogisticRegression]] = {}
    for k in range(FOLDS if not args.check else 1):
        held = [i for i, t in enumerate(texts) if fold(t.family) == k]
        vec, model = fit([t for t in texts if fold(t.family) != k])
        fold_models[k] = (vec, model)
        oof[held] = note_scores(vec, model, [texts[i] for i in held])
        if k == 0:
            dev = [texts[i] for i in held]
            dev_scores = oof[held]
            dev_model = (vec, model)
    fold_notes: dict[int, NoteModel] = {}
    if args.check:
        threshold = choose_threshold(dev, dev_scores)
        strong = max(threshold, choose_threshold(dev, dev_scores, STRONG_FPR))
        blend = 0.0
    else:
        fold_notes = train_fold_notes(texts)
        threshold, strong, blend = choose_pair(texts, fold_models, fold_notes)
    print(f"thresholds: {threshold:.3f} with a cue to the reader, {strong:.3f} without, note blend {blend:.2f}")
    report(f"development split: fold 0, {len(dev)} texts of families never trained on", dev, dev_scores, threshold)
    if not args.check:
        report(f"all {FOLDS} folds, each scored by a model that never saw its families", texts, oof, threshold)
        sweep(texts, oof)
    # The whole check (training-free signals, hidden and encoded text, and the classifier) on fold 0.
    fold_model = as_model(*dev_model, threshold, strong, note=fold_notes.get(0), blend=blend)
    whole = whole_check(dev, fold_model)
    report("whole check on the development split (signals + the fold-0 classifier)", dev, whole, 0.0)
    off = Model({}, float("-inf"), float("inf"))
    signals = np.array([1.0 if instructions.scan(t.text, off) else -1.0 for t in dev])
    report("signals alone (classifier off) on the development split", dev, signals, 0.0)
    if args.check:
        return
    # The whole check, out of fold, on every text people wrote: each scored with the model of the folds it is not in.
    people = [i for i, t in enumerate(texts) if t.source in WRITTEN_BY_OTHERS]
    judges = {k: as_model(*pair, threshold, strong, note=fold_notes[k], blend=blend) for k, pair in fold_models.items()}
    whole_oof = np.array([1.0 if instructions.scan(texts[i].text, judges[fold(texts[i].family)]) else -1.0 for i in people])
    report("whole check, out of fold, on the sets people wrote", [texts[i] for i in people], whole_oof, 0.0)
    vec, model = fit(texts)
    meta = {"texts": len(texts), "sources": {s: {"orders": p, "lessons": n} for s, (p, n) in sorted(sizes.items())},
            "corpora": {"pyrit": "1.1.0", "spikee": "0.9.2"}, "C": C, "seed": SEED}
    save(vec, model, threshold, strong, fit_note(texts), blend, meta)
    print(f"done in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
