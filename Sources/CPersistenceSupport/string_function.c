#include "CPersistenceSupport.h"
#include <sqlite3.h>
#include <string.h>
#include <pthread.h>

// The SQL side of predicate string operators: PST_STRING_<operator>_<folding>(left, right), one function per
// operator and folding, so a row's call carries only its two texts. Most text in most
// stores is ASCII, and a search runs the function on every row: for ASCII text the four operators a search uses
// most are answered here, without a call into Swift, and so is Latin-1 text (accented Western European letters),
// folded through the tables Swift made from Foundation's folding. Everything else — other operators, other
// text, errors — goes to the Swift function given at registration, which answers every case the same way as the
// in-memory evaluator.
//
// Operator and option numbers are StringOperation's and StringComparison.Options' raw values; a Swift test checks
// that they agree.
enum { OP_EQUAL = 1, OP_CONTAINS = 6, OP_BEGINS_WITH = 7, OP_ENDS_WITH = 8 };
enum { OPTION_CASE_INSENSITIVE = 1 };

typedef struct {
    int operation;
    int folding;
    void *box;
    persistence_string_fallback fallback;
    persistence_box_release release;
} string_function;

// Latin-1 folding tables (see Latin1Folding): per folding 1 [c], 2 [d], 3 [cd], per character, its folded UTF-8
// bytes and their count. Set once for the process (they are made from Foundation's folding, the same every time).
static unsigned char folded_table[4][256][PERSISTENCE_FOLD_WIDTH];
static unsigned char folded_count_table[4][256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static const unsigned char *pending_folded;
static const unsigned char *pending_counts;
static int has_tables;

static void copy_tables(void) {
    memcpy(folded_table, pending_folded, sizeof(folded_table));
    memcpy(folded_count_table, pending_counts, sizeof(folded_count_table));
    has_tables = 1;
}

void persistence_set_folding_tables(const unsigned char *folded, const unsigned char *folded_count) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    pending_folded = folded;
    pending_counts = folded_count;
    pthread_once(&tables_once, copy_tables);
    pthread_mutex_unlock(&lock);
}

enum { FOLD_BUFFER = 512 };

// `bytes` folded through `function`'s table for `folding` into `out` (FOLD_BUFFER bytes); the folded count, or -1
// when a character lies outside Latin-1, the bytes are not valid UTF-8, or the result does not fit.
static int fold_latin1(int folding, const unsigned char *bytes, int count, unsigned char *out) {
    int written = 0;
    int i = 0;
    while (i < count) {
        unsigned char lead = bytes[i];
        int code;
        if (lead < 0x80) {
            code = lead;
            i += 1;
        } else if ((lead == 0xC2 || lead == 0xC3) && i + 1 < count && (bytes[i + 1] & 0xC0) == 0x80) {
            code = ((lead & 0x1F) << 6) | (bytes[i + 1] & 0x3F);
            i += 2;
        } else {
            return -1;
        }
        int length = folded_count_table[folding][code];
        if (written + length > FOLD_BUFFER) return -1;
        memcpy(out + written, folded_table[folding][code], (size_t)length);
        written += length;
    }
    return written;
}

static int is_ascii(const unsigned char *bytes, int count) {
    // Eight bytes at a time: a byte is ASCII when its high bit is clear.
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        unsigned long long word;
        memcpy(&word, bytes + i, 8);
        if (word & 0x8080808080808080ULL) return 0;
    }
    for (; i < count; i++) {
        if (bytes[i] >= 0x80) return 0;
    }
    return 1;
}

static inline unsigned char lower(unsigned char byte) {
    return (unsigned char)(byte - 'A') < 26 ? (unsigned char)(byte | 0x20) : byte;
}

static int equal_at(const unsigned char *a, const unsigned char *b, int count, int fold) {
    if (fold) {
        for (int i = 0; i < count; i++) {
            if (lower(a[i]) != lower(b[i])) return 0;
        }
        return 1;
    }
    for (int i = 0; i < count; i++) {
        if (a[i] != b[i]) return 0;
    }
    return 1;
}

static int contains(const unsigned char *s, int n, const unsigned char *sub, int m, int fold) {
    if (m == 0 || m > n) return 0;
    if (!fold || m > 64) {
        unsigned char first = fold ? lower(sub[0]) : sub[0];
        for (int start = 0; start <= n - m; start++) {
            unsigned char byte = fold ? lower(s[start]) : s[start];
            if (byte == first && equal_at(s + start + 1, sub + 1, m - 1, fold)) return 1;
        }
        return 0;
    }
    // Folding case: the term is lowered once; its first letter is looked for in both cases, so only the bytes
    // where it occurs are lowered.
    unsigned char term[64];
    for (int k = 0; k < m; k++) term[k] = lower(sub[k]);
    unsigned char first = term[0];
    unsigned char other = (unsigned char)(first - 'a') < 26 ? (unsigned char)(first & ~0x20) : first;
    for (int start = 0; start <= n - m; start++) {
        unsigned char byte = s[start];
        if (byte != first && byte != other) continue;
        int k = 1;
        while (k < m && lower(s[start + k]) == term[k]) k++;
        if (k == m) return 1;
    }
    return 0;
}

static void call(sqlite3_context *context, int count, sqlite3_value **values) {
    string_function *function = sqlite3_user_data(context);
    int operation = function->operation;
    if (count == 2 && sqlite3_value_type(values[0]) == SQLITE_TEXT && sqlite3_value_type(values[1]) == SQLITE_TEXT
        && (operation == OP_EQUAL || operation == OP_CONTAINS || operation == OP_BEGINS_WITH || operation == OP_ENDS_WITH)) {
        // sqlite3_value_text before sqlite3_value_bytes, as SQLite's documentation asks.
        const unsigned char *left = sqlite3_value_text(values[0]);
        int leftCount = sqlite3_value_bytes(values[0]);
        const unsigned char *right = sqlite3_value_text(values[1]);
        int rightCount = sqlite3_value_bytes(values[1]);
        if (left && right && is_ascii(left, leftCount) && is_ascii(right, rightCount)) {
            // ASCII has no diacritics: only case folding is left to do.
            int fold = (function->folding & OPTION_CASE_INSENSITIVE) != 0;
            int answer;
            switch (operation) {
            case OP_EQUAL:
                answer = leftCount == rightCount && equal_at(left, right, rightCount, fold);
                break;
            case OP_CONTAINS:
                answer = contains(left, leftCount, right, rightCount, fold);
                break;
            case OP_BEGINS_WITH:
                answer = rightCount > 0 && rightCount <= leftCount && equal_at(left, right, rightCount, fold);
                break;
            default:
                answer = rightCount > 0 && rightCount <= leftCount
                    && equal_at(left + leftCount - rightCount, right, rightCount, fold);
                break;
            }
            sqlite3_result_int64(context, answer);
            return;
        }
        // Latin-1 text under [c] or [d]: folded through the same tables Swift uses, then compared exactly.
        if (left && right && function->folding != 0 && has_tables) {
            unsigned char foldedLeft[FOLD_BUFFER], foldedRight[FOLD_BUFFER];
            int l = fold_latin1(function->folding, left, leftCount, foldedLeft);
            int r = l < 0 ? -1 : fold_latin1(function->folding, right, rightCount, foldedRight);
            if (r >= 0) {
                int answer;
                switch (operation) {
                case OP_EQUAL: answer = l == r && equal_at(foldedLeft, foldedRight, r, 0); break;
                case OP_CONTAINS: answer = contains(foldedLeft, l, foldedRight, r, 0); break;
                case OP_BEGINS_WITH: answer = r > 0 && r <= l && equal_at(foldedLeft, foldedRight, r, 0); break;
                default: answer = r > 0 && r <= l && equal_at(foldedLeft + l - r, foldedRight, r, 0); break;
                }
                sqlite3_result_int64(context, answer);
                return;
            }
        }
    }
    function->fallback(function->box, operation, function->folding, context, count, values);
}

static void destroy(void *pointer) {
    string_function *function = pointer;
    function->release(function->box);
    sqlite3_free(function);
}

int persistence_create_string_function(struct sqlite3 *db, const char *name, int operation, int folding, void *box,
                                       persistence_string_fallback fallback, persistence_box_release release) {
    string_function *function = sqlite3_malloc(sizeof(string_function));
    if (!function) {
        release(box);
        return SQLITE_NOMEM;
    }
    function->operation = operation;
    function->folding = folding;
    function->box = box;
    function->fallback = fallback;
    function->release = release;
    // On failure sqlite3_create_function_v2 calls destroy itself.
    return sqlite3_create_function_v2(db, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, function, call, 0, 0, destroy);
}
