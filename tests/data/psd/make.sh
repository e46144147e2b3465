#!/bin/sh
# Makes the PSD test fixtures with real applications: ImageMagick (flat layer lists at 8 and 16
# bits, raw, RLE and ZIP channel data) and GIMP in batch mode (groups, hidden and tagged layers,
# [skin] groups, blend modes, and an edited copy for the re-import test).
# Needs the Debian packages imagemagick and gimp; the outputs are committed, so the tests do not.
#   sh tests/data/psd/make.sh
set -eu
cd "$(dirname "$0")"
CONVERT=/usr/bin/convert
mkdir -p src

# source art: small PNGs with soft (partly transparent) edges
$CONVERT -size 12x10 xc:none -fill 'rgb(220,40,40)' -draw 'circle 6,5 6,1' PNG32:src/head.png
$CONVERT -size 10x14 xc:none -fill 'rgb(40,60,200)' -draw 'rectangle 1,1 8,12' \
    -fill 'rgba(250,250,250,0.5)' -draw 'rectangle 1,6 8,7' PNG32:src/body.png
$CONVERT -size 4x9 xc:none -fill 'rgb(30,170,60)' -draw 'rectangle 0,0 3,8' PNG32:src/arm.png
$CONVERT -size 6x4 xc:none -fill 'rgb(240,200,20)' -draw 'rectangle 1,0 4,3' PNG32:src/hat_red.png
$CONVERT -size 6x4 xc:none -fill 'rgb(20,200,240)' -draw 'rectangle 0,1 5,3' PNG32:src/hat_blue.png
$CONVERT -size 3x3 xc:'rgb(10,10,10)' PNG32:src/eye_open.png
$CONVERT -size 3x1 xc:'rgb(10,10,10)' PNG32:src/eye_closed.png
$CONVERT -size 8x8 xc:'rgba(255,255,160,0.6)' PNG32:src/glow.png
$CONVERT -size 3x7 xc:'rgb(90,60,30)' PNG32:src/leg_l.png
$CONVERT -size 3x7 xc:'rgb(60,90,30)' PNG32:src/leg_r.png
$CONVERT -size 12x10 xc:'rgb(128,128,255)' PNG32:src/head_n.png
$CONVERT -size 5x3 xc:'rgb(200,120,40)' PNG32:src/tail.png
$CONVERT -size 48x40 xc:'rgb(90,90,90)' PNG32:src/backdrop.png

# ImageMagick: the first image is the merged one, then the layers bottom to top with their
# offsets (-set page) and names (-set label)
im() { # im OUT DEPTH COMPRESSION
    $CONVERT \( -size 40x32 xc:'rgba(1,2,3,0)' \) \
        \( src/body.png -set label body -set page +15+12 \) \
        \( src/head.png -set label 'head' -set page +14+2 \) \
        \( src/arm.png -set label 'arm [bone]' -set page +25+14 \) \
        -type TrueColorAlpha -depth "$2" -compress "$3" "$1"
}
im im_rgb8_rle.psd 8 RLE
im im_rgb8_raw.psd 8 None
im im_rgb16_rle.psd 16 RLE
im im_rgb16_raw.psd 16 None
im im_zip.psd 8 Zip

# GIMP: groups and tags; VERSION 2 is the "artist edited it" copy for the re-import test:
# head moved by (+3, -2), body repainted, a new layer "tail", "glow" removed.
gimp_psd() { # gimp_psd OUT VERSION
    cat >/tmp/mf-psd-make.scm <<SCM
(define (add img parent file name x y pos)
  (let ((l (car (gimp-file-load-layer RUN-NONINTERACTIVE img file))))
    (gimp-image-insert-layer img l parent pos)
    (gimp-item-set-name l name)
    (gimp-layer-set-offsets l x y)
    l))
(define (group img parent name pos)
  (let ((g (car (gimp-layer-group-new img))))
    (gimp-image-insert-layer img g parent pos)
    (gimp-item-set-name g name)
    g))
(let* ((v $2)
       (img (car (gimp-image-new 48 40 RGB))))
  ; inserted at position 0 = on top, so bottom-most first
  (add img 0 "src/backdrop.png" "backdrop [ignore]" 0 0 0)
  (let ((torso (group img 0 "torso" 0)))
    (if (= v 1) (add img torso "src/body.png" "body" 19 18 0)
        (let ((b (add img torso "src/body.png" "body" 19 18 0)))
          (gimp-drawable-invert b FALSE)))
    (let ((arm (group img torso "arm_l [bone]" 0)))
      (add img arm "src/arm.png" "arm" 29 20 0))
    (gimp-item-set-visible (add img torso "src/glow.png" "sketch" 2 2 0) FALSE))
  (let ((legs (group img 0 "legs [merge]" 0)))
    (add img legs "src/leg_l.png" "leg_l" 20 31 0)
    (add img legs "src/leg_r.png" "leg_r" 25 31 0))
  (if (= v 1) (add img 0 "src/head.png" "head [mesh]" 18 6 0)
      (add img 0 "src/head.png" "head [mesh]" 21 4 0))
  (gimp-item-set-visible (add img 0 "src/head_n.png" "head [normal]" 18 6 0) FALSE)
  (let ((eyes (group img 0 "eyes [slot]" 0)))
    (gimp-item-set-visible (add img eyes "src/eye_closed.png" "eye_closed" 22 10 0) FALSE)
    (add img eyes "src/eye_open.png" "eye_open" 22 9 0))
  (add img (group img 0 "[skin] red" 0) "src/hat_red.png" "hat" 21 1 0)
  (let ((blue (group img 0 "[skin] blue" 0)))
    (add img blue "src/hat_blue.png" "hat" 21 1 0)
    (gimp-item-set-visible blue FALSE))
  (if (= v 1)
      (let ((g (add img 0 "src/glow.png" "glow" 30 4 0)))
        (gimp-layer-set-mode g LAYER-MODE-SCREEN)
        (gimp-layer-set-opacity g 50)))
  (if (= v 2) (add img 0 "src/tail.png" "tail" 12 26 0))
  (file-psd-save RUN-NONINTERACTIVE img (car (gimp-image-get-active-drawable img)) "$1" "$1" 1 0)
  (gimp-quit 0))
SCM
    gimp-console -i -d -f -b - </tmp/mf-psd-make.scm >/dev/null 2>&1
    rm -f /tmp/mf-psd-make.scm
    test -s "$1"
}
gimp_psd gimp_rig.psd 1
gimp_psd gimp_rig_v2.psd 2
ls -l ./*.psd
