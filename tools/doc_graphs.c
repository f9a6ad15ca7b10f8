/* Writes the DOT text of the example graphs that docs/program-ad.md and docs/eager-ad.md show
 * (tools/render_doc_graphs.sh compiles and runs it, then renders each file with Graphviz):
 *   program.dot       f(x, w) = sum(tanh(x * w)) traced over a symbolic extent
 *   program_grad.dot  its gradient function (tfe_function_grad)
 *   eager_trace.dot   the eager trace of sum(sin(x) * x * k), x a variable, k an I32 constant
 * Usage: doc_graphs <output directory> */
#include <stdio.h>
#include <stdlib.h>

#include <tenferro/tenferro.h>

static void check(tfe_status s, const char* what) {
  if (s != TFE_OK) {
    fprintf(stderr, "doc_graphs: %s: %s\n", what, tfe_last_error_message());
    exit(1);
  }
}

static void write_text(const char* dir, const char* name, const char* text) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE* f = fopen(path, "w");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    fprintf(stderr, "doc_graphs: cannot write %s\n", path);
    exit(1);
  }
}

static void write_function(const char* dir, const char* name, const tfe_function* f) {
  int64_t needed = 0;
  check(tfe_function_to_dot(f, NULL, 0, &needed), "tfe_function_to_dot");
  char* text = malloc((size_t)needed);
  if (!text) exit(1);
  check(tfe_function_to_dot(f, text, needed, NULL), "tfe_function_to_dot");
  write_text(dir, name, text);
  free(text);
}

static void write_trace(const char* dir, const char* name, const tfe_tensor* t) {
  int64_t needed = 0;
  check(tfe_autograd_to_dot(t, NULL, 0, &needed), "tfe_autograd_to_dot");
  char* text = malloc((size_t)needed);
  if (!text) exit(1);
  check(tfe_autograd_to_dot(t, text, needed, NULL), "tfe_autograd_to_dot");
  write_text(dir, name, text);
  free(text);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: doc_graphs <output directory>\n");
    return 2;
  }
  tfe_context* ctx = NULL;
  check(tfe_context_create(&ctx), "tfe_context_create");

  /* A traced function and its gradient. */
  const int64_t sym[1] = {-1};
  tfe_tensor *x = NULL, *w = NULL, *xw = NULL, *th = NULL, *loss = NULL;
  check(tfe_tensor_symbolic(&x, ctx, TFE_F64, 1, sym), "x");
  check(tfe_tensor_symbolic(&w, ctx, TFE_F64, 1, sym), "w");
  check(tfe_mul(&xw, x, w), "mul");
  check(tfe_tanh(&th, xw), "tanh");
  check(tfe_sum(&loss, th, 0, NULL), "sum");
  tfe_tensor* inputs[2] = {x, w};
  tfe_function *f = NULL, *g = NULL;
  check(tfe_function_create(&f, 2, inputs, 1, &loss), "tfe_function_create");
  check(tfe_function_grad(&g, f, 0, NULL), "tfe_function_grad");
  write_function(argv[1], "program.dot", f);
  write_function(argv[1], "program_grad.dot", g);

  /* An eager trace with a promoted constant. */
  const double xv[3] = {0.1, 0.5, 2.0};
  const int32_t kv[3] = {1, 2, 3};
  const int64_t s3[1] = {3};
  tfe_tensor *v = NULL, *k = NULL, *s = NULL, *sx = NULL, *sxk = NULL, *eloss = NULL;
  check(tfe_tensor_from_data(&v, ctx, TFE_F64, 1, s3, NULL, xv), "x");
  check(tfe_tensor_from_data(&k, ctx, TFE_I32, 1, s3, NULL, kv), "k");
  check(tfe_tensor_set_requires_grad(v, 1), "requires_grad");
  check(tfe_sin(&s, v), "sin");
  check(tfe_mul(&sx, s, v), "mul");
  check(tfe_mul(&sxk, sx, k), "mul");
  check(tfe_sum(&eloss, sxk, 0, NULL), "sum");
  write_trace(argv[1], "eager_trace.dot", eloss);

  tfe_tensor* all[] = {x, w, xw, th, loss, v, k, s, sx, sxk, eloss};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) tfe_tensor_release(all[i]);
  tfe_function_release(g);
  tfe_function_release(f);
  tfe_context_release(ctx);
  return 0;
}
