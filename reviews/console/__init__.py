"""The console's review pages for people: a store's reviews, one review's proposals with Adopt,
Dismiss and Adopt all, and Review now (issue 12, part 1). Mounted under /console/ by the root URLs."""
