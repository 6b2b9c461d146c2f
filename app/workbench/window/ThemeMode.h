#pragma once
// View → Theme: the application's palette. Qt 6.4 reads no colour-scheme hint on this platform, so the
// workbench brings its own light and dark palettes; "system" is the palette the platform gave at start.
// Charts (ChartView), the timeline and the tables all draw from the application palette, so switching
// repaints everything in the new colours. The choice persists in QSettings ("view/theme").
#include <QString>

#include <optional>

class QPalette;

namespace cnp::wb {

enum class ThemeMode { System = 0, Light, Dark };

// "system", "light", "dark" (the settings and --theme spelling).
QString themeKey(ThemeMode mode);
std::optional<ThemeMode> themeFromKey(const QString& key);
// The palette of `mode`; System = the platform's palette as captured at the first call.
QPalette themePalette(ThemeMode mode);
// Sets the application palette (every widget repaints; charts re-theme on their PaletteChange).
void applyTheme(ThemeMode mode);
ThemeMode currentTheme();
// The saved choice (System when none or unreadable) and saving one.
ThemeMode savedTheme();
void saveTheme(ThemeMode mode);

} // namespace cnp::wb
