# v8x builds WAMR with CMake, whose FetchContent would download simde from GitHub.
# Point it at Debian's libsimde-dev headers instead, so builds work offline.
set(FETCHCONTENT_SOURCE_DIR_SIMDE /usr/include CACHE PATH "Debian's libsimde-dev headers")
