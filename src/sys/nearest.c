/* Edit distance for "did you mean" suggestions. */
#include "nearest.h"

#include <string.h>

#define NEAREST_MAX_LEN 64     /* longer words are not typos worth a guess */

int nearest_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > NEAREST_MAX_LEN || lb > NEAREST_MAX_LEN) return 1 << 20;
    int row[NEAREST_MAX_LEN + 1];
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diagonal = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int above = row[j];
            int best = diagonal + (a[i - 1] != b[j - 1]);
            if (above + 1 < best) best = above + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}

int nearest_is_close(const char *word, const char *candidate)
{
    int d = nearest_distance(word, candidate);
    return d > 0 && d <= 2 && 2 * d < (int)strlen(word);
}

int nearest_of(const char *word, const char *const words[], int n)
{
    int best = -1, best_d = 1 << 20;
    for (int i = 0; i < n; i++) {
        if (!words[i] || !nearest_is_close(word, words[i])) continue;
        int d = nearest_distance(word, words[i]);
        if (d < best_d) { best = i; best_d = d; }
    }
    return best;
}
