#pragma once
// The resumable searches of pairs.h as handles JS drives a slice at a time (dedup on the
// calling thread yields between slices, reports progress and honours its AbortSignal),
// with the candidate pairs of a similarity dedup verified as they are found against the
// shingle sets of a ShingleSets handle. Every handle belongs to the one call that created
// it: calls that overlap on an instance share none of them.
#include <cstdint>

namespace simhash::bindings {

/// A PairSearch over `count` fingerprints at `fingerprints` (which must stay valid until
/// the handle is deleted), shard `shard` of `shards`, and the pairs it has found since
/// they were last cleared.
uintptr_t pairSearchCreate(uintptr_t fingerprints, uint32_t count, unsigned maxDistance, unsigned shard, unsigned shards);
/// Runs about `workBudget` units (pairs.h); returns whether the search is done.
bool pairSearchRun(uintptr_t search, double workBudget);
double pairSearchProgress(uintptr_t search);
/// Keeps only the found pairs whose texts' similarity reaches `threshold` (the texts' sets
/// of the ShingleSets handle `sets`); returns how many are kept.
uint32_t pairSearchVerify(uintptr_t search, uintptr_t sets, double threshold);
/// The pairs found and kept so far: their count, and their address as (a, b, distance)
/// uint32 triples (valid until the next call on the handle).
uint32_t pairSearchFound(uintptr_t search);
uintptr_t pairSearchFoundAddress(uintptr_t search);
/// Forgets the found pairs (their memory too, when it is large).
void pairSearchClear(uintptr_t search);
void pairSearchDelete(uintptr_t search);

/// An EqualFingerprints (pairs.h) over `count` fingerprints, which need not outlive the
/// call: a pool's shard of findPairs searches its distinct fingerprints with a PairSearch
/// and lists the pairs of items behind the pairs of groups it finds.
uintptr_t equalFingerprintsCreate(uintptr_t fingerprints, uint32_t count);
/// The distinct fingerprints' address (valid until the handle is deleted) and number.
uintptr_t equalFingerprintsDistinct(uintptr_t groups);
uint32_t equalFingerprintsDistinctCount(uintptr_t groups);
uint32_t equalFingerprintsRepeated(uintptr_t groups);
/// The item pairs behind the `count` pairs of groups at `groupPairs` ((a, b, distance)
/// uint32 triples) and, with withinGroups, the pairs of copies: returns their number, and
/// when it is at most maxPairs, the result buffer holds them as (a, b, distance) uint32
/// triples sorted by (a, b).
double equalFingerprintsExpand(uintptr_t groups, uintptr_t groupPairs, uint32_t count, bool withinGroups, double maxPairs);
void equalFingerprintsDelete(uintptr_t groups);

/// A LeaderSearch (dedup's leader grouping) over fingerprints that stay valid until the
/// handle is deleted; with similarity > 0, a leader takes an item only if their texts'
/// sets (of the ShingleSets handle `sets`, which must outlive the search) reach it.
uintptr_t leaderSearchCreate(uintptr_t fingerprints, uint32_t count, unsigned maxDistance, uintptr_t sets, double similarity);
bool leaderSearchRun(uintptr_t search, double workBudget);
double leaderSearchProgress(uintptr_t search);
/// Writes the labels (count uint32) to out, once the search is done.
void leaderSearchTake(uintptr_t search, uintptr_t out);
/// Whether the search takes the pair path (LeaderSearch::usesPairs): a pool shards that
/// path's pair search across its workers (js/pool/search.js).
bool leaderSearchUsesPairs(uintptr_t search);
/// LeaderSearch::pairBound(items): the most pairs a pool lists in shards for a leader
/// grouping of `items` before one worker runs LeaderSearch instead.
double leaderSearchPairBound(double items);
void leaderSearchDelete(uintptr_t search);

/// A SimilarGroups (similar_groups.h) over the texts' sets of the ShingleSets handle
/// `sets` (it signs the sets as shingleSetsAdd builds them when passed to it), which must
/// outlive it: leader grouping, or components when `components`, at similarity
/// `threshold` with bandingFor(threshold, sets) (chosen once the sets have counted the texts).
uintptr_t similarGroupsCreate(uintptr_t sets, double threshold, bool components);
bool similarGroupsRun(uintptr_t groups, double workBudget);
double similarGroupsProgress(uintptr_t groups);
/// Writes the labels (one uint32 per text) to out, once the grouping is done.
void similarGroupsTake(uintptr_t groups, uintptr_t out);
void similarGroupsDelete(uintptr_t groups);

/// A ReviewPairs (review_pairs.h) over the texts' sets of the ShingleSets handle `sets`
/// (which must outlive it) and the group of each text, labels[0, count) (copied): the
/// pairs of groups that some pair of their texts joins at `review` or more, from bands
/// at bandingFor(review, sets); reviewPairsTake is asked for `limit` of them at most
/// (ReviewPairs' limit; a double, as JS numbers reach past 2^32); a band key held by more
/// than `maxBucket` texts proposes none (ReviewPairs' maxBucket; 2^32 - 1: every key); the
/// search stops past `mostPairs` pairs of groups or `mostProposals` candidates proposed
/// (ReviewPairs' bounds, where its progress stays below 1; Infinity: never).
uintptr_t reviewPairsCreate(uintptr_t sets, uintptr_t labels, uint32_t count, double review, double limit, uint32_t maxBucket,
                            double mostPairs, double mostProposals);
bool reviewPairsRun(uintptr_t review, double workBudget);
double reviewPairsProgress(uintptr_t review);
/// Once the search is done: the number of pairs of groups, and the first n = min(limit,
/// that number) of them in the result buffer as n float64 similarities, then n uint32 a,
/// then n uint32 b.
double reviewPairsTake(uintptr_t review, double limit);
void reviewPairsDelete(uintptr_t review);

/// A ShingleSets (similarity.h) of the call that creates it, for pairSearchVerify,
/// leaderSearchCreate and similarGroupsCreate; shingleSetsDelete frees it.
uintptr_t shingleSetsCreate();
void shingleSetsDelete(uintptr_t sets);
/// Builds the texts' sets a slice at a time (each slice one UTF-8 buffer and count + 1
/// offsets, which need not outlive the call): shingleSetsCount for every slice, then
/// shingleSetsAdd for the same slices in order (ShingleSets::countTexts, addTexts).
/// `groups`: a similarGroupsCreate handle that signs each set as it is built (its
/// addTexts observer), or 0.
/// `measure` and `weights` as shingleOptionsOf takes them (the first slice's hold for all).
void shingleSetsCount(uintptr_t sets, uintptr_t utf8, uintptr_t offsets, uint32_t count, uint32_t measure, uintptr_t weights);
void shingleSetsAdd(uintptr_t sets, uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t groups);
/// out[i] = the similarity of the built sets a[i] and b[i] (ShingleSets::similarity), for
/// i < count. @pre every a[i], b[i] was built.
void shingleSetsSimilarities(uintptr_t sets, uintptr_t a, uintptr_t b, uint32_t count, uintptr_t out);

}  // namespace simhash::bindings
