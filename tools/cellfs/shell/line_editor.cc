// libedit behind LineEditor: an EditLine with a History, the prompt read
// from client data, Tab bound to our completion function, and a SIGINT
// handler without SA_RESTART so that Ctrl-C ends el_gets's read.
#include "tools/cellfs/shell/line_editor.h"

#include <histedit.h>
#include <signal.h>

#include <cstdio>

#include "tools/cellfs/shell/completion.h"
#include "tools/cellfs/shell/history_file.h"

namespace cellfs::tools::shell {
namespace {

constexpr size_t kHistorySize = 1000;
volatile std::sig_atomic_t interrupted = 0;

void OnInterrupt(int) { interrupted = 1; }

}  // namespace

struct LineEditor::Impl {
  EditLine* el = nullptr;
  History* history = nullptr;
  std::string history_path;
  Completer completer;
  std::string prompt;
  struct sigaction old_action {};

  static char* Prompt(EditLine* el) {
    Impl* self = nullptr;
    el_get(el, EL_CLIENTDATA, &self);
    return self->prompt.data();
  }

  // Tab: one candidate is inserted with a blank after it; several insert
  // their common prefix, or are listed when that adds nothing.
  static unsigned char Complete(EditLine* el, int) {
    Impl* self = nullptr;
    el_get(el, EL_CLIENTDATA, &self);
    const LineInfo* info = el_line(el);
    const std::string_view before(info->buffer, static_cast<size_t>(info->cursor - info->buffer));
    size_t start = before.size();
    while (start > 0 &&
           std::string_view(" \t(),;=").find(before[start - 1]) == std::string_view::npos) {
      --start;
    }
    const std::string_view word = before.substr(start);
    const std::vector<std::string> candidates = self->completer(before.substr(0, start), word);
    if (candidates.empty()) return CC_REFRESH_BEEP;
    if (candidates.size() == 1) {
      const std::string rest = candidates[0].substr(word.size()) + " ";
      el_insertstr(el, rest.c_str());
      return CC_REFRESH;
    }
    const std::string common = CommonPrefix(candidates);
    if (common.size() > word.size()) {
      el_insertstr(el, common.substr(word.size()).c_str());
      return CC_REFRESH;
    }
    std::fputs("\n", stdout);
    for (const std::string& candidate : candidates) std::printf("%s  ", candidate.c_str());
    std::fputs("\n", stdout);
    std::fflush(stdout);
    return CC_REDISPLAY;
  }
};

LineEditor::LineEditor(std::string history_path, Completer completer)
    : impl_(std::make_unique<Impl>()) {
  impl_->history_path = std::move(history_path);
  impl_->completer = std::move(completer);
  impl_->history = history_init();
  HistEvent event;
  history(impl_->history, &event, H_SETSIZE, static_cast<int>(kHistorySize));
  if (!impl_->history_path.empty()) {
    for (const std::string& entry : LoadHistory(impl_->history_path, kHistorySize)) {
      history(impl_->history, &event, H_ENTER, entry.c_str());
    }
  }
  impl_->el = el_init("cellfs", stdin, stdout, stderr);
  el_set(impl_->el, EL_CLIENTDATA, impl_.get());
  el_set(impl_->el, EL_PROMPT, &Impl::Prompt);
  el_set(impl_->el, EL_EDITOR, "emacs");
  el_set(impl_->el, EL_HIST, history, impl_->history);
  el_set(impl_->el, EL_ADDFN, "cellfs-complete", "Complete a CQL word", &Impl::Complete);
  el_set(impl_->el, EL_BIND, "^I", "cellfs-complete", nullptr);

  struct sigaction action {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: the read in el_gets must end
  sigaction(SIGINT, &action, &impl_->old_action);
}

LineEditor::~LineEditor() {
  sigaction(SIGINT, &impl_->old_action, nullptr);
  el_end(impl_->el);
  history_end(impl_->history);
}

LineEditor::Result LineEditor::ReadLine(const std::string& prompt, std::string* line) {
  impl_->prompt = prompt;
  interrupted = 0;
  int count = 0;
  const char* text = el_gets(impl_->el, &count);
  if (text == nullptr || count <= 0) {
    if (interrupted != 0) {
      interrupted = 0;
      std::fputs("\n", stdout);
      return Result::kInterrupted;
    }
    return Result::kEnd;
  }
  *line = text;
  if (!line->empty() && line->back() == '\n') line->pop_back();
  return Result::kLine;
}

void LineEditor::AddHistory(const std::string& entry) {
  HistEvent event;
  history(impl_->history, &event, H_ENTER, entry.c_str());
  if (!impl_->history_path.empty()) AppendHistory(impl_->history_path, entry);
}

bool LineEditor::TakeInterrupt() {
  const bool was = interrupted != 0;
  interrupted = 0;
  return was;
}

}  // namespace cellfs::tools::shell
