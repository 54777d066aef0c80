/* Dim expressions of manifest version 2: parsed once into a postfix program,
 * evaluated with overflow-checked int64 arithmetic at every call.
 *
 *   expr   := term (('+' | '-') term)*
 *   term   := factor (('*' | '/' | '%') factor)*
 *   factor := integer | symbol | '(' expr ')' | '-' factor
 *
 * '/' is floor division and '%' the matching modulo (MLIR's AffineExpr
 * floordiv and mod). The parser recurses at most RLX_EXPR_MAX_DEPTH levels
 * (parentheses and unary minus), and an expression has at most
 * RLX_EXPR_MAX_LENGTH characters, which bounds its program and the
 * evaluation stack. */
#include "internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Postfix instructions, one int64 word each; CONST and SYMBOL are followed
 * by their operand. */
enum {
  OP_CONST,
  OP_SYMBOL,
  OP_NEGATE,
  OP_ADD,
  OP_SUBTRACT,
  OP_MULTIPLY,
  OP_FLOOR_DIVIDE,
  OP_MODULO,
};

/* Each operand takes at least one character and one operator between two
 * operands, so no evaluation needs a deeper stack. */
#define EXPR_STACK (RLX_EXPR_MAX_LENGTH / 2 + 2)

typedef struct expr_parser {
  const char *text;
  size_t length;
  size_t position;
  rlx_expr_resolver_t resolve;
  void *context;
  int64_t *code;
  size_t code_length;
  size_t code_capacity;
  size_t stack;     /* values on the evaluation stack at this point */
  size_t max_stack; /* the most the program ever needs */
  bool has_symbols;
} expr_parser_t;

static rlx_status_t expr_error(const expr_parser_t *p, const char *format, ...)
    RLX_PRINTF(2, 3);

static rlx_status_t expr_error(const expr_parser_t *p, const char *format,
                               ...) {
  char detail[256];
  va_list args;
  va_start(args, format);
  vsnprintf(detail, sizeof(detail), format, args);
  va_end(args);
  int shown = p->length > 64 ? 64 : (int)p->length;
  return rlx_make_status(RLX_STATUS_INVALID_FORMAT, "expression '%.*s%s': %s",
                         shown, p->text, p->length > 64 ? "..." : "", detail);
}

/* Where the parser is, for messages: "at character N" or "at the end". */
static void describe_position(const expr_parser_t *p, char *buffer,
                              size_t size) {
  if (p->position >= p->length)
    snprintf(buffer, size, "at the end");
  else
    snprintf(buffer, size, "'%c' at character %zu", p->text[p->position],
             p->position + 1);
}

/* Appends an instruction that changes the stack depth by `effect`. The code
 * buffer is sized for the longest program of the text (see
 * rlx_expr_compile), so it never overflows. */
static rlx_status_t emit(expr_parser_t *p, int64_t op, const int64_t *operand,
                         int effect) {
  size_t words = operand ? 2 : 1;
  if (p->code_capacity - p->code_length < words)
    return rlx_make_status(RLX_STATUS_INTERNAL,
                           "expression '%.*s' needs more code than its length "
                           "allows",
                           (int)(p->length > 64 ? 64 : p->length), p->text);
  p->code[p->code_length++] = op;
  if (operand)
    p->code[p->code_length++] = *operand;
  if (effect > 0) {
    p->stack += (size_t)effect;
    if (p->stack > p->max_stack)
      p->max_stack = p->stack;
  } else {
    p->stack -= (size_t)-effect;
  }
  if (p->max_stack > EXPR_STACK)
    return rlx_make_status(RLX_STATUS_INTERNAL,
                           "expression '%.*s' needs a deeper stack than its "
                           "length allows",
                           (int)(p->length > 64 ? 64 : p->length), p->text);
  return NULL;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool is_symbol_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static rlx_status_t parse_sum(expr_parser_t *p, size_t depth);

static rlx_status_t parse_factor(expr_parser_t *p, size_t depth) {
  if (depth > RLX_EXPR_MAX_DEPTH)
    return expr_error(p, "nested more than %d levels deep", RLX_EXPR_MAX_DEPTH);
  char where[48];
  if (p->position >= p->length)
    return expr_error(p, "expected a number, a symbol, '(' or '-' at the end");
  char c = p->text[p->position];
  if (c == '(') {
    ++p->position;
    rlx_status_t status = parse_sum(p, depth + 1);
    if (status)
      return status;
    if (p->position >= p->length || p->text[p->position] != ')') {
      describe_position(p, where, sizeof(where));
      return expr_error(p, "expected ')' %s", where);
    }
    ++p->position;
    return NULL;
  }
  if (c == '-') {
    ++p->position;
    rlx_status_t status = parse_factor(p, depth + 1);
    return status ? status : emit(p, OP_NEGATE, NULL, 0);
  }
  if (is_digit(c)) {
    size_t start = p->position;
    uint64_t value = 0;
    for (; p->position < p->length && is_digit(p->text[p->position]);
         ++p->position) {
      unsigned digit = (unsigned)(p->text[p->position] - '0');
      if (value > ((uint64_t)INT64_MAX - digit) / 10)
        return expr_error(p,
                          "integer at character %zu is too large (at most "
                          "%" PRId64 ")",
                          start + 1, INT64_MAX);
      value = value * 10 + digit;
    }
    int64_t operand = (int64_t)value;
    return emit(p, OP_CONST, &operand, 1);
  }
  if (is_symbol_start(c)) {
    size_t start = p->position;
    while (p->position < p->length && (is_symbol_start(p->text[p->position]) ||
                                       is_digit(p->text[p->position])))
      ++p->position;
    size_t index = 0;
    rlx_status_t status =
        p->resolve(p->context, p->text + start, p->position - start, &index);
    if (status)
      return status;
    if (index > (uint64_t)INT64_MAX)
      return rlx_make_status(RLX_STATUS_INTERNAL, "symbol index overflow");
    int64_t operand = (int64_t)index;
    p->has_symbols = true;
    return emit(p, OP_SYMBOL, &operand, 1);
  }
  describe_position(p, where, sizeof(where));
  return expr_error(p, "expected a number, a symbol, '(' or '-', got %s",
                    where);
}

static rlx_status_t parse_product(expr_parser_t *p, size_t depth) {
  rlx_status_t status = parse_factor(p, depth);
  while (!status && p->position < p->length) {
    char c = p->text[p->position];
    int64_t op = c == '*'   ? OP_MULTIPLY
                 : c == '/' ? OP_FLOOR_DIVIDE
                 : c == '%' ? OP_MODULO
                            : -1;
    if (op < 0)
      break;
    ++p->position;
    status = parse_factor(p, depth);
    if (!status)
      status = emit(p, op, NULL, -1);
  }
  return status;
}

static rlx_status_t parse_sum(expr_parser_t *p, size_t depth) {
  rlx_status_t status = parse_product(p, depth);
  while (!status && p->position < p->length) {
    char c = p->text[p->position];
    if (c != '+' && c != '-')
      break;
    ++p->position;
    status = parse_product(p, depth);
    if (!status)
      status = emit(p, c == '+' ? OP_ADD : OP_SUBTRACT, NULL, -1);
  }
  return status;
}

rlx_status_t rlx_expr_compile(const char *text, size_t length,
                              rlx_expr_resolver_t resolve, void *context,
                              rlx_expr_t *out) {
  expr_parser_t p = {
      .text = text, .length = length, .resolve = resolve, .context = context};
  if (length == 0)
    return rlx_make_status(RLX_STATUS_INVALID_FORMAT, "empty expression");
  if (length > RLX_EXPR_MAX_LENGTH)
    return expr_error(&p, "longer than %d characters", RLX_EXPR_MAX_LENGTH);

  /* Every character emits at most two words (an operand and its
   * instruction take at least one character). */
  p.code_capacity = 2 * length + 2;
  p.code = malloc(p.code_capacity * sizeof(*p.code));
  char *copy = malloc(length + 1);
  rlx_status_t status = NULL;
  if (!p.code || !copy)
    status = rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                             "out of memory compiling an expression");
  if (!status)
    status = parse_sum(&p, 0);
  if (!status && p.position < length) {
    char where[48];
    describe_position(&p, where, sizeof(where));
    status =
        text[p.position] == ')'
            ? expr_error(&p, "unbalanced ')' at character %zu", p.position + 1)
            : expr_error(&p, "expected an operator or the end, got %s", where);
  }
  if (!status && p.stack != 1)
    status = rlx_make_status(RLX_STATUS_INTERNAL,
                             "expression leaves %zu values", p.stack);
  if (status) {
    free(p.code);
    free(copy);
    return status;
  }
  memcpy(copy, text, length);
  copy[length] = '\0';
  out->text = copy;
  out->code = p.code;
  out->length = p.code_length;
  out->has_symbols = p.has_symbols;
  out->symbol = p.code_length == 2 && p.code[0] == OP_SYMBOL ? (size_t)p.code[1]
                                                             : SIZE_MAX;
  return NULL;
}

void rlx_expr_free(rlx_expr_t *expr) {
  if (!expr)
    return;
  free(expr->text);
  free(expr->code);
  expr->text = NULL;
  expr->code = NULL;
  expr->length = 0;
}

/* ---- evaluation ---------------------------------------------------------- */

static bool add(int64_t a, int64_t b, int64_t *out) {
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
    return false;
  *out = a + b;
  return true;
}

static bool subtract(int64_t a, int64_t b, int64_t *out) {
  if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b))
    return false;
  *out = a - b;
  return true;
}

static bool multiply(int64_t a, int64_t b, int64_t *out) {
  if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
            : (b > 0 ? a < INT64_MIN / b : a != 0 && b < INT64_MAX / a))
    return false;
  *out = a * b;
  return true;
}

/* Rounds toward negative infinity; `b` is not zero. */
static bool floor_divide(int64_t a, int64_t b, int64_t *out) {
  if (b == -1) {
    if (a == INT64_MIN)
      return false;
    *out = -a;
    return true;
  }
  int64_t quotient = a / b;
  if (a % b != 0 && (a < 0) != (b < 0))
    --quotient;
  *out = quotient;
  return true;
}

/* The remainder of floor division: it has the divisor's sign. */
static int64_t modulo(int64_t a, int64_t b) {
  if (b == -1)
    return 0; /* INT64_MIN % -1 is undefined in C */
  int64_t remainder = a % b;
  if (remainder != 0 && (remainder < 0) != (b < 0))
    remainder += b;
  return remainder;
}

rlx_expr_result_t rlx_expr_evaluate(const rlx_expr_t *expr,
                                    const int64_t *symbols, int64_t *out) {
  int64_t stack[EXPR_STACK];
  size_t depth = 0;
  for (size_t i = 0; i < expr->length; ++i) {
    int64_t op = expr->code[i];
    if (op == OP_CONST || op == OP_SYMBOL) {
      int64_t operand = expr->code[++i];
      stack[depth++] = op == OP_CONST ? operand : symbols[operand];
      continue;
    }
    if (op == OP_NEGATE) {
      if (stack[depth - 1] == INT64_MIN)
        return RLX_EXPR_OVERFLOW;
      stack[depth - 1] = -stack[depth - 1];
      continue;
    }
    int64_t b = stack[--depth], a = stack[depth - 1];
    int64_t *result = &stack[depth - 1];
    bool ok = true;
    switch (op) {
    case OP_ADD:
      ok = add(a, b, result);
      break;
    case OP_SUBTRACT:
      ok = subtract(a, b, result);
      break;
    case OP_MULTIPLY:
      ok = multiply(a, b, result);
      break;
    case OP_FLOOR_DIVIDE:
    case OP_MODULO:
      if (b == 0)
        return RLX_EXPR_DIVISION_BY_ZERO;
      if (op == OP_MODULO)
        *result = modulo(a, b);
      else
        ok = floor_divide(a, b, result);
      break;
    default:
      return RLX_EXPR_OVERFLOW; /* unreachable: rlx_expr_compile emits no
                                   other instruction */
    }
    if (!ok)
      return RLX_EXPR_OVERFLOW;
  }
  *out = stack[0];
  return RLX_EXPR_OK;
}

bool rlx_expr_next_symbol(const rlx_expr_t *expr, size_t *cursor,
                          size_t *symbol) {
  while (*cursor < expr->length) {
    int64_t op = expr->code[(*cursor)++];
    if (op == OP_CONST) {
      ++*cursor;
    } else if (op == OP_SYMBOL) {
      *symbol = (size_t)expr->code[(*cursor)++];
      return true;
    }
  }
  return false;
}
