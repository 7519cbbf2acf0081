// The app-wide view state.
#include "ui/view.hpp"

namespace m2m::ui {

View& view() {
    static View v;
    return v;
}

}  // namespace m2m::ui
