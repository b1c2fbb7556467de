"""The pure parts of the duplicate finder: shingles, MinHash, LSH banding, the fold."""

from __future__ import annotations

import random

from reviews.services.similarity import (
    PERMUTATIONS,
    LshIndex,
    fold_texts,
    groups_of,
    jaccard,
    shingles,
    signature,
)


def test_shingles_are_three_word_windows_of_lower_cased_words():
    assert shingles("Run dbt build, then TEST.") == {"run dbt build", "dbt build then", "build then test"}
    assert shingles("raw.orders lands") == {"raw.orders lands"}
    assert shingles("") == set()


def test_signature_agreement_estimates_jaccard():
    rng = random.Random(7)
    words = [f"w{i}" for i in range(500)]
    base = [rng.choice(words) for _ in range(200)]
    near = base[:150] + [rng.choice(words) for _ in range(50)]
    a, b = shingles(" ".join(base)), shingles(" ".join(near))
    sa, sb = signature(a), signature(b)
    agree = sum(x == y for x, y in zip(sa, sb, strict=True)) / PERMUTATIONS
    assert abs(agree - jaccard(a, b)) < 0.15
    assert signature(a) == sa  # deterministic across calls (and processes: SHAKE-128, not hash())


def test_lsh_finds_near_duplicates_among_unrelated_notes_and_few_others():
    rng = random.Random(11)
    words = [f"w{i}" for i in range(3000)]
    texts = [" ".join(rng.choice(words) for _ in range(80)) for _ in range(300)]
    texts.append(texts[5] + " one more line here")  # 300: near-duplicate of 5
    index = LshIndex()
    for i, text in enumerate(texts):
        index.add(i, signature(shingles(text)))
    pairs = index.candidate_pairs()
    assert (5, 300) in pairs
    assert len(pairs) < 50  # of 45,150 pairs, unrelated ones rarely share a band


def test_groups_join_pairs_that_share_a_member():
    assert groups_of([(3, 4), (1, 2), (2, 5)]) == [[1, 2, 5], [3, 4]]


def test_the_fold_keeps_the_kept_text_and_adds_only_missing_lines_in_order():
    kept = "# Tips\n\nUse state:modified.\nRun tests.\n"
    other = "# Tips\n\nuse STATE:modified\nDefer to prod.\n\nRun tests.\n"
    folded = fold_texts(kept, [other, "Defer to prod.\nNew line.\n"])
    assert folded == "# Tips\n\nUse state:modified.\nRun tests.\nDefer to prod.\nNew line.\n"
    assert fold_texts(kept, [other]) == fold_texts(kept, [other])
